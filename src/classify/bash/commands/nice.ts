/**
 * nice: it runs the command it is given (classified on its own) at another priority; neutral itself. `nice -10
 * cmd`: the digits of an old-style adjustment read as a cluster of digit flags.
 */
import { knownOptions, simpleWrapper } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

export const NICE: CommandSpec = {
	unwrap: simpleWrapper(
		knownOptions(
			opts("-n=", "--adjustment=", "-0", "-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-9", ...HELP),
		),
	),
};
