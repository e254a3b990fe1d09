/**
 * cat: it prints the files it is given.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const cat: ReadOnlyCommand = {
	options: opts(
		"-A --show-all",
		"-b --number-nonblank",
		"-e",
		"-E --show-ends",
		"-n --number",
		"-s --squeeze-blank",
		"-t",
		"-T --show-tabs",
		"-u",
		"-v --show-nonprinting",
		...HELP,
	),
	operands: files,
};

export const CAT: CommandSpec = {
	readOnly: cat,
	paths: { operands: "read" },
};
