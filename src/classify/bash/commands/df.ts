/**
 * df: it prints the free space of file systems.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const df: ReadOnlyCommand = {
	options: opts(
		"-a --all",
		"-B= --block-size=",
		"-h --human-readable",
		"-H --si",
		"-i --inodes",
		"-k",
		"-l --local",
		// Not --sync: it flushes every file system before listing.
		"--no-sync",
		"--output[=]",
		"-P --portability",
		"--total",
		"-t= --type=",
		"-T --print-type",
		"-x= --exclude-type=",
		...HELP,
	),
	operands: files,
};

export const DF: CommandSpec = { readOnly: df };
