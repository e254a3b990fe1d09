/**
 * wc: it counts the lines, words and bytes of the files it is given; `--files0-from` reads a list of files the
 * proof cannot see.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP, readsListedFiles } from "./read-only-helpers.ts";

const wc: ReadOnlyCommand = {
	options: [
		...opts(
			"-c --bytes",
			"-m --chars",
			"-l --lines",
			"-L --max-line-length",
			"-w --words",
			"--total=",
			...HELP,
		),
		readsListedFiles("--files0-from=", "wc --files0-from"),
	],
	operands: files,
};

export const WC: CommandSpec = {
	readOnly: wc,
	paths: { operands: "read" },
};
