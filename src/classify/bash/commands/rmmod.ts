/**
 * rmmod: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const RMMOD_TIERS = [...rows("privileged", ["rmmod *"])];

export const RMMOD: CommandSpec = { tiers: RMMOD_TIERS };
