/**
 * head: it prints the start of the files it is given (`-5` is `-n 5`).
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { headTail } from "./read-only-helpers.ts";

const head: ReadOnlyCommand = headTail([]);

export const HEAD: CommandSpec = {
	readOnly: head,
	paths: { operands: "read", options: head.options },
};
