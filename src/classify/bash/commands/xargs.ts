/**
 * xargs: it runs a command with operands read from its input at run time, which the command's own words do not
 * show (so that command is never proven read, and its paths are not all known). Neutral itself when every option
 * it was given is one it is known to take.
 */
import type { BashWord } from "../bash-word.ts";
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
import { HELP } from "./read-only-helpers.ts";

const XARGS_OPTIONS = knownOptions(
	opts(
		"-a= --arg-file=",
		"-d= --delimiter=",
		"-E=",
		"-I=",
		"-L=",
		"-n= --max-args=",
		"-P= --max-procs=",
		"-s= --max-chars=",
		"--process-slot-var=",
		"-0 --null",
		"-o --open-tty",
		"-p --interactive",
		"-r --no-run-if-empty",
		"--show-limits",
		"-t --verbose",
		"-x --exit",
		...HELP,
		"-e[=] --eof[=]",
		"-i[=] --replace[=]",
		"-l[=] --max-lines[=]",
	),
);

function unwrapXargs(args: readonly BashWord[]): Unwrapped {
	const scanned = scanWrapper(args, XARGS_OPTIONS);
	return {
		self: wrapperSelf(scanned, XARGS_OPTIONS, "xargs"),
		inner: argvInner(fromFirstOperand(args, scanned), "xargs", { runtimeOperands: true }),
	};
}

export const XARGS: CommandSpec = { unwrap: unwrapXargs };
