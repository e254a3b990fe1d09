/**
 * traceroute: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const TRACEROUTE_TIERS = [...rows("network-egress", ["traceroute *"])];

export const TRACEROUTE: CommandSpec = { tiers: TRACEROUTE_TIERS };
