/**
 * rev: it reverses the lines of the files it is given.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const rev: ReadOnlyCommand = simpleFilter();

export const REV: CommandSpec = {
	readOnly: rev,
	paths: { operands: "read" },
};
