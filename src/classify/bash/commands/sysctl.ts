/**
 * sysctl: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SYSCTL_TIERS = [...rows("privileged", ["sysctl *"])];

export const SYSCTL: CommandSpec = { tiers: SYSCTL_TIERS };
