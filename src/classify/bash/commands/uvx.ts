/**
 * uvx: it fetches a package from the network and runs it (network-egress), and so is whatever it runs.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { packageRunner, UV_RUN_VALUE } from "./package-runners.ts";

export const UVX: CommandSpec = {
	tiers: rows("network-egress", ["uvx *"]),
	unwrap: packageRunner("uvx", UV_RUN_VALUE),
};
