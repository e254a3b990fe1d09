/**
 * timeout: it runs the command after the duration (classified on its own) with a time limit; neutral itself when
 * every option is known.
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

const TIMEOUT_OPTIONS = knownOptions(
	opts(
		"-s=",
		"--signal=",
		"-k=",
		"--kill-after=",
		"-f",
		"--foreground",
		"-p",
		"--preserve-status",
		"-v",
		"--verbose",
		...HELP,
	),
);

function unwrapTimeout(args: readonly BashWord[]): Unwrapped {
	const scanned = scanWrapper(args, TIMEOUT_OPTIONS);
	const afterDuration = fromFirstOperand(args, scanned).slice(1);
	return {
		self: wrapperSelf(scanned, TIMEOUT_OPTIONS, "timeout"),
		inner: argvInner(afterDuration, "timeout"),
	};
}

export const TIMEOUT: CommandSpec = { unwrap: unwrapTimeout };
