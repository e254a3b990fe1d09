/**
 * pip3: by subcommand, write for `pip3 uninstall *`; network-egress for `pip3 install *`, `pip3 download *`.
 * Read-only only as `--version` or `--help` alone.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const PIP3_TIERS = [
	...rows("write", ["pip3 uninstall *"]),
	...rows("network-egress", ["pip3 install *", "pip3 download *"]),
];

export const PIP3: CommandSpec = { readOnly: versionOnly(["-V"]), tiers: PIP3_TIERS };
