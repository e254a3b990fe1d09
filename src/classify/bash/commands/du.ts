/**
 * du: it sums the space the trees it is given take, all the way down.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { always, files, followsLinks, HELP, readsListedFiles } from "./read-only-helpers.ts";

const du: ReadOnlyCommand = {
	options: [
		...opts(
			"-0 --null",
			"-a --all",
			"--apparent-size",
			"-B= --block-size=",
			"-b --bytes",
			"-c --total",
			"-D --dereference-args",
			"-d= --max-depth=",
			"-H",
			"-h --human-readable",
			"--inodes",
			"-k",
			"-l --count-links",
			"-m",
			"-P --no-dereference",
			"-S --separate-dirs",
			"--si",
			"-s --summarize",
			"-t= --threshold=",
			"--time[=]",
			"--time-style=",
			"-X=@ --exclude-from=@",
			"--exclude=",
			"-x --one-file-system",
			...HELP,
		),
		readsListedFiles("--files0-from=", "du --files0-from"),
		{ names: ["-L", "--dereference"], raise: followsLinks("du -L lists the directories", "du without -L") },
	],
	operands: files,
	descends: always,
};

export const DU: CommandSpec = {
	readOnly: du,
	paths: {
		operands: "read",
		options: opts("-d=", "--max-depth=", "-B=", "--block-size=", "-t=", "--threshold=", "--exclude="),
	},
};
