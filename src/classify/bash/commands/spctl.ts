/**
 * spctl: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SPCTL_TIERS = [...rows("privileged", ["spctl *"])];

export const SPCTL: CommandSpec = { tiers: SPCTL_TIERS };
