/**
 * xh: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const XH_TIERS = [...rows("network-egress", ["xh *"])];

export const XH: CommandSpec = { tiers: XH_TIERS };
