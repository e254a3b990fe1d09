/**
 * terraform: planning and applying reach providers (network-egress) and create billable resources (spend);
 * destroying destroys. Options before the subcommand (`-chdir=dir`) are skipped; none takes a separate value.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const TERRAFORM_TIERS = [
	...rows("write", ["terraform fmt *"]),
	...rows("network-egress", ["terraform *"]),
	...rows("spend", ["terraform apply *"]),
	...rows("destructive", ["terraform destroy *", "terraform apply *-destroy*"]),
];

export const TERRAFORM: CommandSpec = { tiers: TERRAFORM_TIERS, globalOptions: [] };
