/**
 * watch: it runs its words again and again as shell code (or, with `-x`, as a command), classified on their own;
 * neutral itself when every option is known.
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
import { HELP } from "./read-only-helpers.ts";

const WATCH_OPTIONS = knownOptions(
	opts(
		"-n=",
		"--interval=",
		"-q=",
		"--equexit=",
		"-b",
		"--beep",
		"-c",
		"--color",
		"-C",
		"--no-color",
		"-e",
		"--errexit",
		"-g",
		"--chgexit",
		"-t",
		"--no-title",
		"-w",
		"--no-wrap",
		"-x",
		"--exec",
		"-p",
		"--precise",
		"-r",
		"--no-rerun",
		"-h",
		"-v",
		...HELP,
		"-d[=]",
		"--differences[=]",
	),
);

function unwrapWatch(args: readonly BashWord[]): Unwrapped {
	const scanned = scanWrapper(args, WATCH_OPTIONS);
	const self = wrapperSelf(scanned, WATCH_OPTIONS, "watch");
	const rest = fromFirstOperand(args, scanned);
	if (hasOption(scanned, "-x", "--exec")) return { self, inner: argvInner(rest, "watch") };
	return { self, inner: rest.length === 0 ? [] : [{ kind: "shell", code: rest, via: "watch" }] };
}

export const WATCH: CommandSpec = { unwrap: unwrapWatch };
