/**
 * ifconfig: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const IFCONFIG_TIERS = [...rows("privileged", ["ifconfig * up*", "ifconfig * down*", "ifconfig * inet *"])];

export const IFCONFIG: CommandSpec = { tiers: IFCONFIG_TIERS };
