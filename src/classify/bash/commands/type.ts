/**
 * type: it says what bash would run for a name; its operands are names, not paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { text } from "./read-only-helpers.ts";

const type: ReadOnlyCommand = {
	options: opts("-a", "-f", "-p", "-P", "-t"),
	operands: text,
	optionsFirst: true,
};

export const TYPE: CommandSpec = { readOnly: type, paths: { operands: "none" } };
