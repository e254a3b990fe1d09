/**
 * fold: it wraps the lines of the files it is given.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const fold: ReadOnlyCommand = simpleFilter("-b --bytes", "-s --spaces", "-w= --width=");

export const FOLD: CommandSpec = {
	readOnly: fold,
	paths: { operands: "read", options: fold.options },
};
