/**
 * tac: it prints the files it is given, last line first.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const tac: ReadOnlyCommand = simpleFilter("-b --before", "-r --regex", "-s= --separator=");

export const TAC: CommandSpec = {
	readOnly: tac,
	paths: { operands: "read", options: tac.options },
};
