/**
 * tree: it lists the trees it is given; `-o` writes the listing to a file.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts, raising } from "./option-notation.ts";
import { always, files, followsLinks, HELP } from "./read-only-helpers.ts";

const tree: ReadOnlyCommand = {
	options: [
		...opts(
			...[..."adfxiASnCpugshDFqNQrtcUvJX"].map((c) => `-${c}`),
			"-L=",
			"-P=",
			"-I=",
			"-T=",
			"-H=",
			"--noreport",
			"--inodes",
			"--device",
			"--dirsfirst",
			"--filesfirst",
			"--du",
			"--si",
			"--prune",
			"--matchdirs",
			"--ignore-case",
			"--gitignore",
			"--info",
			"--infofile=@",
			"--nolinks",
			"--fromfile",
			"--charset=",
			"--filelimit=",
			"--timefmt=",
			"--sort=",
			...HELP,
		),
		raising("write", "tree -o writes its output to a file", "-o=", "write"),
		raising("write", "tree -R writes a listing file into every directory", "-R"),
		{ names: ["-l"], raise: followsLinks("tree -l lists the directories", "tree without -l") },
	],
	operands: files,
	clusterValuesFollow: true,
	descends: always,
};

export const TREE: CommandSpec = {
	readOnly: tree,
	paths: { operands: "read", options: opts("-L=", "-I=", "-P=", "--filelimit=", "--charset=", "-o=>") },
};
