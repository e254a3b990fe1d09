/**
 * poetry: installing reaches the network; `poetry run` runs a local command, classified on its own.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { subcommandRunner } from "./package-runners.ts";

const POETRY_TIERS = [...rows("network-egress", ["poetry *"])];

export const POETRY: CommandSpec = { tiers: POETRY_TIERS, unwrap: subcommandRunner({ local: ["run"] }) };
