/**
 * xxd: it dumps the file it is given, or with a second operand writes the dump there. Never proven read.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const XXD: CommandSpec = {
	paths: { operands: "read", outputOperand: 1, options: opts("-c=", "-g=", "-l=", "-s=", "-o=") },
};
