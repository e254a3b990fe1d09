/**
 * sort: it sorts the files it is given; `-o` writes a file and `-T` writes temporary files, so neither is a
 * read.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts, raising } from "./option-notation.ts";
import { files, HELP, readsListedFiles } from "./read-only-helpers.ts";

const sort: ReadOnlyCommand = {
	options: [
		...opts(
			"-b --ignore-leading-blanks",
			"-d --dictionary-order",
			"-f --ignore-case",
			"-g --general-numeric-sort",
			"-i --ignore-nonprinting",
			"-M --month-sort",
			"-h --human-numeric-sort",
			"-n --numeric-sort",
			"-R --random-sort",
			"--random-source=@",
			"-r --reverse",
			"--sort=",
			"-V --version-sort",
			"--batch-size=",
			"-c",
			"-C",
			"--check[=]",
			"--debug",
			"-k= --key=",
			"-m --merge",
			"-s --stable",
			"-S= --buffer-size=",
			"-t= --field-separator=",
			"-u --unique",
			"-z --zero-terminated",
			"--parallel=",
			...HELP,
		),
		raising("write", "sort -o writes its output to a file", "-o= --output=", "write"),
		readsListedFiles("--files0-from=", "sort --files0-from"),
		raising(
			"write",
			"sort -T writes temporary files into the directory it names",
			"-T= --temporary-directory=",
			"write",
		),
		raising("privileged", "sort --compress-program runs a program", "--compress-program="),
	],
	operands: files,
};

export const SORT: CommandSpec = {
	readOnly: sort,
	paths: {
		operands: "read",
		options: opts(
			"-k=",
			"--key=",
			"-t=",
			"--field-separator=",
			"-S=",
			"--buffer-size=",
			"-T=",
			"--temporary-directory=",
			"--files0-from=@",
			"-o=>",
			"--output=>",
		),
	},
};
