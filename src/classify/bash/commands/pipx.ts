/**
 * pipx: it installs and runs Python applications from the network; `pipx run` fetches a package and runs it.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { subcommandRunner, UV_RUN_VALUE } from "./package-runners.ts";

const PIPX_TIERS = [...rows("network-egress", ["pipx *"])];

export const PIPX: CommandSpec = {
	tiers: PIPX_TIERS,
	unwrap: subcommandRunner({ fetches: { run: UV_RUN_VALUE } }),
};
