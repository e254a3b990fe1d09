/**
 * runuser: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const RUNUSER_TIERS = [...rows("privileged", ["runuser *"])];

export const RUNUSER: CommandSpec = { tiers: RUNUSER_TIERS };
