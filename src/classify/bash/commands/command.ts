/**
 * command: the builtin runs the command it is given (classified on its own), skipping functions and aliases;
 * `command -v NAME` only looks a name up. `builtin` (commands/builtin.ts) is the same with no options.
 */
import type { BashWord } from "../bash-word.ts";
import { hasOption } from "../option-scan.ts";
import {
	argvInner,
	fromFirstOperand,
	knownOptions,
	scanWrapper,
	type Unwrapped,
	wrapperSelf,
} from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const COMMAND_OPTIONS = knownOptions(opts("-p", "-v", "-V"));
const BUILTIN_OPTIONS = knownOptions(opts());

export function unwrapCommandBuiltin(args: readonly BashWord[], name: string): Unwrapped {
	const known = name === "command" ? COMMAND_OPTIONS : BUILTIN_OPTIONS;
	const scanned = scanWrapper(args, known);
	const self = wrapperSelf(scanned, known, name);
	if (self.tier === "read" && hasOption(scanned, "-v", "-V"))
		return { self: { tier: "read", reason: `${name} -v looks a command up` }, inner: [] };
	return { self, inner: argvInner(fromFirstOperand(args, scanned), name) };
}

export const COMMAND: CommandSpec = { unwrap: unwrapCommandBuiltin };
