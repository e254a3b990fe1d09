/**
 * gh: every call reaches GitHub (network-egress at least, its update check even for `--version`); running a
 * workflow spends, deleting a repository or a release destroys. `-R`/`--repo` before the subcommand is skipped.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const GH_TIERS = [
	...rows("network-egress", ["gh *"]),
	...rows("spend", ["gh workflow run *"]),
	...rows("destructive", ["gh repo delete *", "gh release delete *"]),
];

export const GH: CommandSpec = { tiers: GH_TIERS, globalOptions: opts("-R= --repo=") };
