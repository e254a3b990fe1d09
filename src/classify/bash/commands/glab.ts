/**
 * glab: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GLAB_TIERS = [...rows("network-egress", ["glab *"])];

export const GLAB: CommandSpec = { tiers: GLAB_TIERS };
