/**
 * tofu (OpenTofu): terraform's tiers under its own name. Options before the subcommand (`-chdir=dir`) are
 * skipped; none takes a separate value.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const TOFU_TIERS = [
	...rows("write", ["tofu fmt *"]),
	...rows("network-egress", ["tofu *"]),
	...rows("spend", ["tofu apply *"]),
	...rows("destructive", ["tofu destroy *"]),
];

export const TOFU: CommandSpec = { tiers: TOFU_TIERS, globalOptions: [] };
