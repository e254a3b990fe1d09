/**
 * grep (and egrep, fgrep): everything the classifier knows about it, in one option list. The read proof matches
 * it option by option; the paths take from it which options take a value (so `grep -m 5 x f` reads no file `5`)
 * and which values name files it reads (`-f`, `--exclude-from`). The first operand is the pattern, unless an
 * option gives it.
 */
import type { PathSpec } from "../path-spec.ts";
import type { OptionSpec, ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { followsLinks, HELP, has } from "./read-only-helpers.ts";

/** Options that give the pattern, so that every operand is a file. */
const PATTERN_OPTIONS = ["-e", "--regexp", "-f", "--file"];

/** grep's options, for the read proof and for the paths (which values name files it reads). */
const GREP_OPTIONS: readonly OptionSpec[] = [
	...opts(
		"-E --extended-regexp",
		"-F --fixed-strings",
		"-G --basic-regexp",
		"-P --perl-regexp",
		"-e= --regexp=",
		"-f=@ --file=@",
		"-i -y --ignore-case",
		"--no-ignore-case",
		"-v --invert-match",
		"-w --word-regexp",
		"-x --line-regexp",
		"-c --count",
		"--color[=] --colour[=]",
		"-L --files-without-match",
		"-l --files-with-matches",
		"-m= --max-count=",
		"-o --only-matching",
		"-q --quiet --silent",
		"-s --no-messages",
		"-b --byte-offset",
		"-H --with-filename",
		"-h --no-filename",
		"--label=",
		"-n --line-number",
		"-T --initial-tab",
		"-Z --null",
		"-z --null-data",
		"-A= --after-context=",
		"-B= --before-context=",
		"-C= --context=",
		"-a --text",
		"--binary-files=",
		"-d= --directories=",
		"-r --recursive",
		"--include=",
		"--exclude=",
		"--exclude-from=@",
		"--exclude-dir=",
		"-U --binary",
		"--line-buffered",
		"-V",
		...HELP,
	),
	{
		names: ["-R", "--dereference-recursive"],
		raise: followsLinks("grep -R reads the files", "grep -r"),
	},
	{
		// Devices found while recursing are skipped unless `-D read` says to read them: `grep -rD read x /dev` opens
		// /dev/tty and every other device.
		names: ["-D", "--devices"],
		value: "required",
		check: (value) =>
			value === "skip"
				? null
				: { tier: "privileged", reason: `grep --devices=${value} opens the devices it meets` },
	},
];

const grep: ReadOnlyCommand = {
	options: GREP_OPTIONS,
	operands: { kind: "pattern-files", patternFrom: PATTERN_OPTIONS },
	numericOption: true,
	descends: (parsed) =>
		has(parsed, "-r", "--recursive", "-R", "--dereference-recursive") ||
		parsed.options.some(
			(option) =>
				option.spec.names.includes("--directories") &&
				option.values.some((value) => value.text === "recurse"),
		),
};

const GREP_PATHS: PathSpec = {
	operands: "read",
	skipLeading: 1,
	leadingSuppliedBy: PATTERN_OPTIONS,
	options: GREP_OPTIONS,
};

export const GREP: CommandSpec = { readOnly: grep, paths: GREP_PATHS };
