/**
 * ncat: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NCAT_TIERS = [...rows("network-egress", ["ncat *"])];

export const NCAT: CommandSpec = { tiers: NCAT_TIERS };
