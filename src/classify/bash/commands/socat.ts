/**
 * socat: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SOCAT_TIERS = [...rows("network-egress", ["socat *"])];

export const SOCAT: CommandSpec = { tiers: SOCAT_TIERS };
