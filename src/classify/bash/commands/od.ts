/**
 * od: it dumps the files it is given in octal, hexadecimal or other forms.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const od: ReadOnlyCommand = simpleFilter(
	"-A= --address-radix=",
	"--endian=",
	"-j= --skip-bytes=",
	"-N= --read-bytes=",
	"-S= --strings[=]",
	"-t= --format=",
	"-v --output-duplicates",
	"-w[=] --width[=]",
	"--traditional",
	...[..."abcdfilosx"].map((c) => `-${c}`),
);

export const OD: CommandSpec = {
	readOnly: od,
	paths: { operands: "read", options: opts("-A=", "-j=", "-N=", "-t=", "-w=") },
};
