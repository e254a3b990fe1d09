/**
 * cd: it changes the shell's directory (the walk follows where the shell is, bash-walk.ts).
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const cd: ReadOnlyCommand = {
	options: opts("-L", "-P", "-e", "-@"),
	operands: { kind: "files", max: 1 },
	optionsFirst: true,
};

export const CD: CommandSpec = { readOnly: cd };
