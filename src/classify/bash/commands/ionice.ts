/**
 * ionice: it runs the command it is given (classified on its own) in another I/O class; neutral itself. Not
 * -p/-P/-u, which change processes already running.
 */
import { knownOptions, simpleWrapper } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

export const IONICE: CommandSpec = {
	unwrap: simpleWrapper(
		knownOptions(opts("-c=", "--class=", "-n=", "--classdata=", "-t", "--ignore", "-h", "-V", ...HELP)),
	),
};
