/**
 * cksum: it prints or checks checksums of the files it is given; `--check` reads a list of files the proof
 * cannot see.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP, readsListedFiles } from "./read-only-helpers.ts";

export const CKSUM: CommandSpec = {
	readOnly: {
		options: [
			...opts(
				"-a= --algorithm=",
				"--base64",
				"-l= --length=",
				"--raw",
				"--tag",
				"--untagged",
				"-z --zero",
				...HELP,
			),
			readsListedFiles("-c --check", "cksum --check"),
		],
		operands: files,
	},
};
