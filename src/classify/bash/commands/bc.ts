/**
 * bc (GNU): it evaluates the arithmetic in the files it is given, then on its standard input. Its language has no
 * way to run a program or write a file (unlike dc's `!`, which is why dc is not here); `read()` reads standard
 * input. One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const bc: ReadOnlyCommand = simpleFilter(
	"-l --mathlib",
	"-q --quiet",
	"-s --standard",
	"-w --warn",
	"-i --interactive",
);

export const BC: CommandSpec = { readOnly: bc, paths: { operands: "read", options: bc.options } };
