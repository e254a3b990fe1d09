/**
 * az: by subcommand, network-egress for `az *`; spend for `az * create *`, `az * start *`, `az * deploy *`, `az
 * * scale *`; destructive for `az * delete *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const AZ_TIERS = [
	...rows("network-egress", ["az *"]),
	...rows("spend", ["az * create *", "az * start *", "az * deploy *", "az * scale *"]),
	...rows("destructive", ["az * delete *"]),
];

export const AZ: CommandSpec = { tiers: AZ_TIERS };
