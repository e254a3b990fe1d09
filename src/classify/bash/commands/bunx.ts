/**
 * bunx: it fetches a package from the network and runs it (network-egress), and so is whatever it runs.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { packageRunner, UV_RUN_VALUE } from "./package-runners.ts";

export const BUNX: CommandSpec = {
	tiers: rows("network-egress", ["bunx *"]),
	unwrap: packageRunner("bunx", UV_RUN_VALUE),
};
