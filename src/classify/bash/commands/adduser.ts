/**
 * adduser: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const ADDUSER_TIERS = [...rows("privileged", ["adduser *"])];

export const ADDUSER: CommandSpec = { tiers: ADDUSER_TIERS };
