/**
 * env: it runs a command with a changed environment (`env A=1 cmd`), in another directory (`-C`), or splits a
 * string into a command line (`-S`), which is shell-like code. It is neutral itself when every option it was
 * given is one it is known to take: an unknown one may take a value, and so change which word is the command.
 */
import type { BashWord } from "../bash-word.ts";
import {
	argvInner,
	fromFirstOperand,
	knownOptions,
	leadingAssignments,
	scanWrapper,
	tailAfter,
	type Unwrapped,
	wrapperSelf,
} from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

const ENV_OPTIONS = knownOptions(
	opts(
		"-u= --unset=",
		"-C= --chdir=",
		"-S= --split-string=",
		"-i --ignore-environment",
		"-0 --null",
		"-v --debug",
		"--list-signal-handling",
		...HELP,
		"--block-signal[=]",
		"--default-signal[=]",
		"--ignore-signal[=]",
	),
);

function unwrapEnv(args: readonly BashWord[]): Unwrapped {
	const scanned = scanWrapper(args, ENV_OPTIONS);
	const rest = fromFirstOperand(args, scanned);
	const assignments = leadingAssignments(rest);
	const start = assignments.length;
	const self = wrapperSelf(scanned, ENV_OPTIONS, "env", {
		tier: "read",
		reason: "env runs a command with a changed environment",
	});
	const split = scanned.options.find((option) => option.name === "-S" || option.name === "--split-string");
	if (split !== undefined) {
		const word =
			split.valueIndex !== undefined
				? args[split.valueIndex]
				: tailAfter(args[split.index], split.value ?? "");
		return {
			self,
			inner: word === undefined ? [] : [{ kind: "shell", code: [word, ...rest.slice(start)], via: "env -S" }],
		};
	}
	const chdir = scanned.options.find((option) => option.name === "-C" || option.name === "--chdir");
	const cwd =
		chdir === undefined
			? undefined
			: chdir.valueIndex !== undefined
				? args[chdir.valueIndex]
				: tailAfter(args[chdir.index], chdir.value ?? "");
	return {
		self,
		inner: argvInner(rest.slice(start), "env", { assignments, ...(cwd === undefined ? {} : { cwd }) }),
	};
}

export const ENV: CommandSpec = { unwrap: unwrapEnv };
