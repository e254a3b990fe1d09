/**
 * uv: installing and syncing reach the network; `uv run` runs a local command, classified on its own.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { subcommandRunner } from "./package-runners.ts";

const UV_TIERS = [
	...rows("network-egress", ["uv pip install *", "uv add *", "uv sync *", "uv lock *", "uv tool install *"]),
];

export const UV: CommandSpec = { tiers: UV_TIERS, unwrap: subcommandRunner({ local: ["run"] }) };
