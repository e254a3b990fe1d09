/**
 * launchctl: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const LAUNCHCTL_TIERS = [...rows("privileged", ["launchctl *"])];

export const LAUNCHCTL: CommandSpec = { tiers: LAUNCHCTL_TIERS };
