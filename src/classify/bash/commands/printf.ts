/**
 * printf: it prints; `-v NAME` assigns, and a subscript in NAME is evaluated as arithmetic (refineNameTaking).
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { raising } from "./option-notation.ts";
import { text } from "./read-only-helpers.ts";
import { refineNameTaking } from "./variable-names.ts";

const printf: ReadOnlyCommand = {
	options: [raising("write", "printf -v assigns a shell variable", "-v=")],
	operands: text,
	optionsFirst: true,
};

export const PRINTF: CommandSpec = {
	readOnly: printf,
	refine: refineNameTaking,
	paths: { operands: "none" },
};
