/**
 * aws: by subcommand, network-egress for `aws *`; spend for `aws * create-*`, `aws * run-*`, `aws * start-*`,
 * `aws * deploy*`, `aws * invoke*`, `aws * purchase-*`; destructive for `aws * delete-*`, `aws * terminate-*`,
 * `aws * remove-*`, `aws s3 rm *`, `aws s3 rb *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const AWS_TIERS = [
	...rows("network-egress", ["aws *"]),
	...rows("spend", [
		"aws * create-*",
		"aws * run-*",
		"aws * start-*",
		"aws * deploy*",
		"aws * invoke*",
		"aws * purchase-*",
	]),
	...rows("destructive", [
		"aws * delete-*",
		"aws * terminate-*",
		"aws * remove-*",
		"aws s3 rm *",
		"aws s3 rb *",
	]),
];

export const AWS: CommandSpec = { tiers: AWS_TIERS };
