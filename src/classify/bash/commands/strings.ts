/**
 * strings: it prints the printable runs of the files it is given.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const strings: ReadOnlyCommand = {
	...simpleFilter(
		"-a --all",
		"-d --data",
		"-f --print-file-name",
		"-n= --bytes=",
		"-t= --radix=",
		"-o",
		"-e= --encoding=",
		"-w --include-all-whitespace",
		"-s= --output-separator=",
		"-U= --unicode=",
		"-T= --target=",
		"-h",
		"-v -V",
	),
	numericOption: true,
};

export const STRINGS: CommandSpec = {
	readOnly: strings,
	paths: { operands: "read", options: strings.options },
};
