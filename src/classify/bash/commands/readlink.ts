/**
 * readlink: it prints where the links it is given point.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const readlink: ReadOnlyCommand = {
	options: opts(
		"-f --canonicalize",
		"-e --canonicalize-existing",
		"-m --canonicalize-missing",
		"-n --no-newline",
		"-q --quiet",
		"-s --silent",
		"-v --verbose",
		"-z --zero",
		...HELP,
	),
	operands: files,
};

export const READLINK: CommandSpec = {
	readOnly: readlink,
	paths: { operands: "read" },
};
