/**
 * paste: it joins the lines of the files it is given.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const paste: ReadOnlyCommand = {
	options: opts("-d= --delimiters=", "-s --serial", "-z --zero-terminated", ...HELP),
	operands: files,
};

export const PASTE: CommandSpec = {
	readOnly: paste,
	paths: { operands: "read", options: paste.options },
};
