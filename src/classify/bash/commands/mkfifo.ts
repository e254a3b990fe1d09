/**
 * mkfifo: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const MKFIFO_TIERS = [...rows("write", ["mkfifo *"])];

export const MKFIFO: CommandSpec = {
	tiers: MKFIFO_TIERS,
	paths: { operands: "write", options: opts("-m=", "--mode=") },
};
