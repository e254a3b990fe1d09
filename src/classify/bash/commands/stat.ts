/**
 * stat: it prints what the file system says of the files it is given.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const stat: ReadOnlyCommand = {
	options: opts(
		"-L --dereference",
		"-f --file-system",
		"-c= --format=",
		"--printf=",
		"-t --terse",
		"--cached=",
		...HELP,
	),
	operands: files,
};

export const STAT: CommandSpec = {
	readOnly: stat,
	paths: { operands: "read", options: opts("-c=", "--format=", "--printf=", "-f=") },
};
