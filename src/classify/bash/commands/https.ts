/**
 * https: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const HTTPS_TIERS = [...rows("network-egress", ["https *"])];

export const HTTPS: CommandSpec = { tiers: HTTPS_TIERS };
