/**
 * snap: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SNAP_TIERS = [...rows("privileged", ["snap *"])];

export const SNAP: CommandSpec = { tiers: SNAP_TIERS };
