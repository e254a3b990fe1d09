/**
 * mosh: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const MOSH_TIERS = [...rows("network-egress", ["mosh *"])];

export const MOSH: CommandSpec = { tiers: MOSH_TIERS };
