/**
 * iptables: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const IPTABLES_TIERS = [...rows("privileged", ["iptables *"])];

export const IPTABLES: CommandSpec = { tiers: IPTABLES_TIERS };
