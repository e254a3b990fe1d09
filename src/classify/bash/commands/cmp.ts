/**
 * cmp: it compares two files byte by byte.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const cmp: ReadOnlyCommand = {
	options: opts(
		"-b --print-bytes",
		"-i= --ignore-initial=",
		"-l --verbose",
		"-n= --bytes=",
		"-s --quiet --silent",
		"-v",
		...HELP,
	),
	operands: files,
};

export const CMP: CommandSpec = {
	readOnly: cmp,
	paths: { operands: "read", options: cmp.options },
};
