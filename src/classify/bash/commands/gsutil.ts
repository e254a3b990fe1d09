/**
 * gsutil: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GSUTIL_TIERS = [...rows("network-egress", ["gsutil *"])];

export const GSUTIL: CommandSpec = { tiers: GSUTIL_TIERS };
