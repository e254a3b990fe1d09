/**
 * nslookup: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NSLOOKUP_TIERS = [...rows("network-egress", ["nslookup *"])];

export const NSLOOKUP: CommandSpec = { tiers: NSLOOKUP_TIERS };
