/**
 * basename: it prints a name without its directory; its operands are text, not paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

const basename: ReadOnlyCommand = {
	options: opts("-a --multiple", "-s= --suffix=", "-z --zero", ...HELP),
	operands: text,
};

export const BASENAME: CommandSpec = { readOnly: basename, paths: { operands: "none" } };
