/**
 * systemctl: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SYSTEMCTL_TIERS = [...rows("privileged", ["systemctl *"])];

export const SYSTEMCTL: CommandSpec = { tiers: SYSTEMCTL_TIERS };
