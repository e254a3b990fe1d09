/**
 * gcloud: by subcommand, network-egress for `gcloud *`; spend for `gcloud * create *`, `gcloud * deploy *`,
 * `gcloud * start *`, `gcloud * resize *`; destructive for `gcloud * delete *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GCLOUD_TIERS = [
	...rows("network-egress", ["gcloud *"]),
	...rows("spend", ["gcloud * create *", "gcloud * deploy *", "gcloud * start *", "gcloud * resize *"]),
	...rows("destructive", ["gcloud * delete *"]),
];

export const GCLOUD: CommandSpec = { tiers: GCLOUD_TIERS };
