/**
 * tail: it prints the end of the files it is given, or follows them (`-f`); `--pid` names a process, not a file.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { headTail } from "./read-only-helpers.ts";

const tail: ReadOnlyCommand = headTail([
	"-f",
	"-F",
	"--follow[=]",
	"--retry",
	"--pid=",
	"-s= --sleep-interval=",
	"--max-unchanged-stats=",
]);

export const TAIL: CommandSpec = {
	readOnly: tail,
	paths: {
		operands: "read",
		options: tail.options,
	},
};
