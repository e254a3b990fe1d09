/**
 * pulumi: by subcommand, network-egress for `pulumi *`; spend for `pulumi up *`, `pulumi update *`; destructive
 * for `pulumi destroy *`, `pulumi stack rm *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PULUMI_TIERS = [
	...rows("network-egress", ["pulumi *"]),
	...rows("spend", ["pulumi up *", "pulumi update *"]),
	...rows("destructive", ["pulumi destroy *", "pulumi stack rm *"]),
];

export const PULUMI: CommandSpec = { tiers: PULUMI_TIERS };
