/**
 * stdbuf: it runs the command it is given (classified on its own) with other buffering; neutral itself.
 */
import { knownOptions, simpleWrapper } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

export const STDBUF: CommandSpec = {
	unwrap: simpleWrapper(
		knownOptions(opts("-i=", "-o=", "-e=", "--input=", "--output=", "--error=", ...HELP)),
	),
};
