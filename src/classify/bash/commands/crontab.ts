/**
 * crontab: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CRONTAB_TIERS = [...rows("privileged", ["crontab *"])];

export const CRONTAB: CommandSpec = { tiers: CRONTAB_TIERS };
