/**
 * insmod: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const INSMOD_TIERS = [...rows("privileged", ["insmod *"])];

export const INSMOD: CommandSpec = { tiers: INSMOD_TIERS };
