/**
 * vercel: by subcommand, network-egress for `vercel *`; spend for `vercel --prod*`, `vercel deploy *`. Never
 * proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const VERCEL_TIERS = [
	...rows("network-egress", ["vercel *"]),
	...rows("spend", ["vercel --prod*", "vercel deploy *"]),
];

export const VERCEL: CommandSpec = { tiers: VERCEL_TIERS };
