/**
 * pipenv: `pipenv run` runs a local command, classified on its own.
 */
import type { CommandSpec } from "./command-spec.ts";
import { subcommandRunner } from "./package-runners.ts";

export const PIPENV: CommandSpec = { unwrap: subcommandRunner({ local: ["run"] }) };
