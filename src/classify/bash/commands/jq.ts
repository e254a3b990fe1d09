/**
 * jq: it filters JSON; the first operand is the filter unless `-f` reads it from a file.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

const jq: ReadOnlyCommand = {
	options: [
		...opts(
			"-n --null-input",
			"-R --raw-input",
			"-s --slurp",
			"-c --compact-output",
			"-r --raw-output",
			"--raw-output0",
			"-j --join-output",
			"-a --ascii-output",
			"-S --sort-keys",
			"-C --color-output",
			"-M --monochrome-output",
			"--tab",
			"--indent=",
			"--unbuffered",
			"--stream",
			"--stream-errors",
			"--seq",
			"-e --exit-status",
			"-f=@ --from-file=@",
			"-L=",
			"-V",
			"-h",
			"--build-configuration",
			...HELP,
		),
		{ names: ["--arg", "--argjson"], values: 2 },
		{ names: ["--slurpfile", "--rawfile"], values: 2, valuePath: "read" },
	],
	// A jq filter cannot write a file or run a program; after it come the input files.
	operands: { kind: "pattern-files", patternFrom: ["-f", "--from-file"] },
};

export const JQ: CommandSpec = {
	readOnly: jq,
	paths: {
		operands: "read",
		skipLeading: 1,
		leadingSuppliedBy: ["-f", "--from-file"],
		options: opts(
			"--indent=",
			"-L=",
			"--arg=",
			"--argjson=",
			"--slurpfile=",
			"--rawfile=",
			"-f=@",
			"--from-file=@",
		),
	},
};
