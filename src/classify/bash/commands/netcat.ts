/**
 * netcat: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NETCAT_TIERS = [...rows("network-egress", ["netcat *"])];

export const NETCAT: CommandSpec = { tiers: NETCAT_TIERS };
