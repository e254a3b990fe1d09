/**
 * time: it runs the command it is given (classified on its own) and reports how long it took; `-o FILE` writes
 * the report there.
 */
import type { BashWord } from "../bash-word.ts";
import { fromWord } from "../path-spec.ts";
import {
	argvInner,
	fromFirstOperand,
	knownOptions,
	scanWrapper,
	tailAfter,
	type Unwrapped,
	wrapperSelf,
} from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

const TIME_OPTIONS = knownOptions(
	opts(
		"-f=",
		"--format=",
		"-o=",
		"--output=",
		"-a",
		"--append",
		"-p",
		"--portability",
		"-v",
		"--verbose",
		"-q",
		"--quiet",
		"-V",
		...HELP,
	),
);

function unwrapTime(args: readonly BashWord[]): Unwrapped {
	const scanned = scanWrapper(args, TIME_OPTIONS);
	const outputs = scanned.options.filter((option) => option.name === "-o" || option.name === "--output");
	const outputWords = outputs.flatMap((output) => {
		const word =
			output.valueIndex !== undefined
				? args[output.valueIndex]
				: tailAfter(args[output.index], output.value ?? "");
		return word === undefined ? [] : [word];
	});
	return {
		self: wrapperSelf(scanned, TIME_OPTIONS, "time"),
		selfPaths: outputWords.map((word) => fromWord(word, "write")),
		inner: argvInner(fromFirstOperand(args, scanned), "time"),
	};
}

export const TIME: CommandSpec = { unwrap: unwrapTime };
