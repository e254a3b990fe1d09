/**
 * diff: it compares files, or two directories entry by entry (following the links among them).
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, followsLinks, HELP, has } from "./read-only-helpers.ts";

const diff: ReadOnlyCommand = {
	options: opts(
		"-i --ignore-case",
		"--ignore-file-name-case",
		"--no-ignore-file-name-case",
		"-E --ignore-tab-expansion",
		"-Z --ignore-trailing-space",
		"-b --ignore-space-change",
		"-w --ignore-all-space",
		"-B --ignore-blank-lines",
		"-I= --ignore-matching-lines=",
		"--strip-trailing-cr",
		"-a --text",
		"-c",
		"-C=",
		"--context[=]",
		"-u",
		"-U=",
		"--unified[=]",
		"-e --ed",
		"-n --rcs",
		"--normal",
		"-y --side-by-side",
		"-W= --width=",
		"--left-column",
		"--suppress-common-lines",
		"-p --show-c-function",
		"-F= --show-function-line=",
		"--label=",
		"-t --expand-tabs",
		"-T --initial-tab",
		"--tabsize=",
		"--suppress-blank-empty",
		"-r --recursive",
		"--no-dereference",
		"-N --new-file",
		"--unidirectional-new-file",
		"-x= --exclude=",
		"-X=@ --exclude-from=@",
		"-S= --starting-file=",
		"--from-file=@",
		"--to-file=@",
		"-s --report-identical-files",
		"-q --brief",
		"--color[=]",
		"--palette=",
		"-d --minimal",
		"--speed-large-files",
		"--horizon-lines=",
		"-v",
		...HELP,
	),
	operands: files,
	descends: (parsed) => has(parsed, "-r", "--recursive"),
	opensEntries: (parsed) => !has(parsed, "--no-dereference"),
	check: (parsed) =>
		has(parsed, "-r", "--recursive") && !has(parsed, "--no-dereference")
			? followsLinks("diff -r reads the files", "diff -r --no-dereference")
			: null,
};

export const DIFF: CommandSpec = {
	readOnly: diff,
	paths: {
		operands: "read",
		options: opts(
			"-U=",
			"-C=",
			"-x=",
			"-I=",
			"-F=",
			"--label=",
			"-L=",
			"--unified=",
			"--context=",
			"--exclude=",
			"-X=@",
			"--exclude-from=@",
		),
	},
};
