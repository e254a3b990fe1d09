/**
 * pfctl: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PFCTL_TIERS = [...rows("privileged", ["pfctl *"])];

export const PFCTL: CommandSpec = { tiers: PFCTL_TIERS };
