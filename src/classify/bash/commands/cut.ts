/**
 * cut: it prints the chosen fields of the files it is given.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const cut: ReadOnlyCommand = {
	options: opts(
		"-b= --bytes=",
		"-c= --characters=",
		"-d= --delimiter=",
		"-f= --fields=",
		"-n",
		"--complement",
		"-s --only-delimited",
		"--output-delimiter=",
		"-z --zero-terminated",
		...HELP,
	),
	operands: files,
};

export const CUT: CommandSpec = {
	readOnly: cut,
	paths: {
		operands: "read",
		options: cut.options,
	},
};
