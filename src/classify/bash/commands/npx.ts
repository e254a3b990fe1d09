/**
 * npx (and pnpx): it fetches a package from the network and runs it (network-egress), and so is whatever it
 * runs.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { NPX_VALUE, packageRunner } from "./package-runners.ts";

export const NPX: CommandSpec = {
	tiers: rows("network-egress", ["npx *"]),
	unwrap: packageRunner("npx", NPX_VALUE),
};

/** pnpx: npx under pnpm's name. */
export const PNPX: CommandSpec = { tiers: rows("network-egress", ["pnpx *"]), unwrap: NPX.unwrap };
