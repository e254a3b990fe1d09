/**
 * wrangler: by subcommand, network-egress for `wrangler *`; spend for `wrangler deploy *`, `wrangler publish *`.
 * Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const WRANGLER_TIERS = [
	...rows("network-egress", ["wrangler *"]),
	...rows("spend", ["wrangler deploy *", "wrangler publish *"]),
];

export const WRANGLER: CommandSpec = { tiers: WRANGLER_TIERS };
