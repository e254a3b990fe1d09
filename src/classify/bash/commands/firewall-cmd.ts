/**
 * firewall-cmd: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const FIREWALL_CMD_TIERS = [...rows("privileged", ["firewall-cmd *"])];

export const FIREWALL_CMD: CommandSpec = { tiers: FIREWALL_CMD_TIERS };
