/**
 * hexdump: it dumps the files it is given. `-e` is a format string and `-f` a file of them, which is
 * read; neither runs anything. One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const hexdump: ReadOnlyCommand = simpleFilter(
	"-b --one-byte-octal",
	"-X --one-byte-hex",
	"-c --one-byte-char",
	"-C --canonical",
	"-d --two-bytes-decimal",
	"-o --two-bytes-octal",
	"-x --two-bytes-hex",
	"-e= --format=",
	"-f=@ --format-file=@",
	"-L[=] --color[=]",
	"-n= --length=",
	"-s= --skip=",
	"-v --no-squeezing",
);

export const HEXDUMP: CommandSpec = {
	readOnly: hexdump,
	paths: { operands: "read", options: hexdump.options },
};
