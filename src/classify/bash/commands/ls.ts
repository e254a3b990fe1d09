/**
 * ls: it lists the directories it is given; `-R` descends, and with `-L` follows the links it meets there.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, followsLinks, HELP, has } from "./read-only-helpers.ts";

const ls: ReadOnlyCommand = {
	options: opts(
		...[..."aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1"].map((c) => `-${c}`),
		"-I= --ignore=",
		"-T= --tabsize=",
		"-w= --width=",
		"--all",
		"--almost-all",
		"--author",
		"--escape",
		"--block-size=",
		"--ignore-backups",
		"--color[=]",
		"--directory",
		"--dired",
		"--classify[=]",
		"--file-type",
		"--format=",
		"--full-time",
		"--group-directories-first",
		"--no-group",
		"--human-readable",
		"--si",
		"--dereference-command-line",
		"--dereference-command-line-symlink-to-dir",
		"--hide=",
		"--hyperlink[=]",
		"--indicator-style=",
		"--inode",
		"--kibibytes",
		"--dereference",
		"--literal",
		"--numeric-uid-gid",
		"--hide-control-chars",
		"--show-control-chars",
		"--quote-name",
		"--quoting-style=",
		"--reverse",
		"--recursive",
		"--size",
		"--sort=",
		"--time=",
		"--time-style=",
		"--context",
		"--zero",
		...HELP,
	),
	operands: files,
	descends: (parsed) => has(parsed, "-R", "--recursive"),
	check: (parsed) =>
		has(parsed, "-R", "--recursive") && has(parsed, "-L", "--dereference")
			? followsLinks("ls -RL lists the directories", "ls -R")
			: null,
};

export const LS: CommandSpec = {
	readOnly: ls,
	paths: {
		operands: "read",
		options: ls.options,
	},
};
