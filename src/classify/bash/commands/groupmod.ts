/**
 * groupmod: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GROUPMOD_TIERS = [...rows("privileged", ["groupmod *"])];

export const GROUPMOD: CommandSpec = { tiers: GROUPMOD_TIERS };
