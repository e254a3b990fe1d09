/**
 * passwd: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PASSWD_TIERS = [...rows("privileged", ["passwd *"])];

export const PASSWD: CommandSpec = { tiers: PASSWD_TIERS };
