/**
 * swapoff: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SWAPOFF_TIERS = [...rows("privileged", ["swapoff *"])];

export const SWAPOFF: CommandSpec = { tiers: SWAPOFF_TIERS };
