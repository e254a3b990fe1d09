/**
 * nc: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NC_TIERS = [...rows("network-egress", ["nc *"])];

export const NC: CommandSpec = { tiers: NC_TIERS };
