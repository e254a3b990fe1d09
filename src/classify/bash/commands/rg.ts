/**
 * rg (ripgrep): read-only with the options it is proven to read with; `-L` follows links while recursing,
 * `--pre` and `--hostname-bin` run programs. It always descends into the trees it is given. Its paths take
 * from the same option list which options take a value and which values name files read.
 */
import type { TierRaise } from "../../tier-raise.ts";
import type { OptionSpec, ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts, raising } from "./option-notation.ts";
import { always, followsLinks, HELP } from "./read-only-helpers.ts";

/** Options that give the pattern (or need none), so that every operand is a path. */
const PATTERN_OPTIONS = ["-e", "--regexp", "-f", "--file", "--files", "--type-list"];

/** rg's options proven read-only, and those that raise. */
const RG_OPTIONS: readonly OptionSpec[] = [
	...opts(
		"-e= --regexp=",
		"-f=@ --file=@",
		"-i --ignore-case",
		"-S --smart-case",
		"-s --case-sensitive",
		"-w --word-regexp",
		"-x --line-regexp",
		"-v --invert-match",
		"-c --count",
		"--count-matches",
		"-l --files-with-matches",
		"--files-without-match",
		"--files",
		"-n --line-number",
		"-N --no-line-number",
		"-o --only-matching",
		"-F --fixed-strings",
		"-g= --glob=",
		"--iglob=",
		"-t= --type=",
		"-T= --type-not=",
		"--type-list",
		"--type-add=",
		"-u --unrestricted",
		"--hidden",
		"--no-ignore",
		"--no-ignore-vcs",
		"--no-ignore-dot",
		"--no-ignore-global",
		"--no-ignore-parent",
		"--no-ignore-exclude",
		"--ignore-file=@",
		"-a --text",
		"-A= --after-context=",
		"-B= --before-context=",
		"-C= --context=",
		"-m= --max-count=",
		"-d= --max-depth=",
		"-j= --threads=",
		"-0 --null",
		"-p --pretty",
		"-H --with-filename",
		"-I --no-filename",
		"--no-heading",
		"--heading",
		"--column",
		"--no-column",
		"--json",
		"--vimgrep",
		"--color=",
		"--colors=",
		"--sort=",
		"--sortr=",
		"-r= --replace=",
		"-U --multiline",
		"--multiline-dotall",
		"-P --pcre2",
		"--engine=",
		"--stats",
		"--trim",
		"-q --quiet",
		"--no-messages",
		"--max-filesize=",
		"-M= --max-columns=",
		"--max-columns-preview",
		"--passthru",
		"-b --byte-offset",
		"--crlf",
		"--null-data",
		"--one-file-system",
		"--binary",
		"--no-binary",
		"-E= --encoding=",
		"--no-config",
		"-V",
		"-h",
		...HELP,
	),
	{ names: ["-L", "--follow"], raise: followsLinks("rg -L reads the files", "rg without -L") },
	raising("privileged", "rg --pre runs a program on every file it searches", "--pre="),
	raising("privileged", "rg --hostname-bin runs a program", "--hostname-bin="),
];

/** Options rg takes with a value that are not proven read-only: known for the paths only. */
const OTHER_VALUE_OPTIONS = opts(
	"--pre-glob=",
	"--path-separator=",
	"--context-separator=",
	"--field-match-separator=",
);

const rg: ReadOnlyCommand = {
	options: RG_OPTIONS,
	operands: { kind: "pattern-files", patternFrom: PATTERN_OPTIONS },
	descends: always,
};

function refineRipgrep(args: readonly string[]): TierRaise | undefined {
	return args.some((arg) => arg === "--pre" || arg.startsWith("--pre="))
		? { tier: "privileged", reason: "rg --pre runs a program on every file" }
		: undefined;
}

export const RG: CommandSpec = {
	readOnly: rg,
	refine: refineRipgrep,
	paths: {
		operands: "read",
		skipLeading: 1,
		leadingSuppliedBy: PATTERN_OPTIONS,
		options: [...RG_OPTIONS, ...OTHER_VALUE_OPTIONS],
	},
};
