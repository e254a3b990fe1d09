/**
 * nproc: it prints the number of processors.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, none } from "./read-only-helpers.ts";

export const NPROC: CommandSpec = {
	readOnly: { options: opts("--all", "--ignore=", ...HELP), operands: none },
};
