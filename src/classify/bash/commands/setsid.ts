/**
 * setsid: it runs the command it is given (classified on its own) in a new session; neutral itself.
 */
import { knownOptions, simpleWrapper } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

export const SETSID: CommandSpec = {
	unwrap: simpleWrapper(
		knownOptions(opts("-c", "--ctty", "-f", "--fork", "-w", "--wait", "-h", "-V", ...HELP)),
	),
};
