/**
 * reboot: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const REBOOT_TIERS = [...rows("privileged", ["reboot *"])];

export const REBOOT: CommandSpec = { tiers: REBOOT_TIERS };
