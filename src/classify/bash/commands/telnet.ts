/**
 * telnet: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const TELNET_TIERS = [...rows("network-egress", ["telnet *"])];

export const TELNET: CommandSpec = { tiers: TELNET_TIERS };
