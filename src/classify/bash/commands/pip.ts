/**
 * pip: by subcommand, write for `pip uninstall *`; network-egress for `pip install *`, `pip download *`. Read-
 * only only as `--version` or `--help` alone.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const PIP_TIERS = [
	...rows("write", ["pip uninstall *"]),
	...rows("network-egress", ["pip install *", "pip download *"]),
];

export const PIP: CommandSpec = { readOnly: versionOnly(["-V"]), tiers: PIP_TIERS };
