/**
 * halt: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const HALT_TIERS = [...rows("privileged", ["halt *"])];

export const HALT: CommandSpec = { tiers: HALT_TIERS };
