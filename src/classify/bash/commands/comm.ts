/**
 * comm: it compares two sorted files line by line.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const comm: ReadOnlyCommand = {
	options: opts(
		"-1",
		"-2",
		"-3",
		"--check-order",
		"--nocheck-order",
		"--output-delimiter=",
		"--total",
		"-z --zero-terminated",
		...HELP,
	),
	operands: files,
};

export const COMM: CommandSpec = {
	readOnly: comm,
	paths: { operands: "read", options: comm.options },
};
