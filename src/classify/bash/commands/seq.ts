/**
 * seq: it prints a sequence of numbers.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

const seq: ReadOnlyCommand = {
	options: opts("-f= --format=", "-s= --separator=", "-w --equal-width", ...HELP),
	operands: text,
	optionsFirst: true,
};

export const SEQ: CommandSpec = { readOnly: seq };
