/**
 * dirname: it prints a name without its last part; its operands are text, not paths.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

export const DIRNAME: CommandSpec = {
	readOnly: { options: opts("-z --zero", ...HELP), operands: text },
	paths: { operands: "none" },
};
