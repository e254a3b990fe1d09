/**
 * ping: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PING_TIERS = [...rows("network-egress", ["ping *"])];

export const PING: CommandSpec = { tiers: PING_TIERS };
