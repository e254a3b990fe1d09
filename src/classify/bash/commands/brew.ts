/**
 * brew: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const BREW_TIERS = [...rows("network-egress", ["brew *"])];

export const BREW: CommandSpec = { tiers: BREW_TIERS };
