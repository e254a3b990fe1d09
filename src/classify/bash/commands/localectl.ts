/**
 * localectl: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const LOCALECTL_TIERS = [...rows("privileged", ["localectl *"])];

export const LOCALECTL: CommandSpec = { tiers: LOCALECTL_TIERS };
