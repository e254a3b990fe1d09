/**
 * tr: it translates standard input; its operands are character sets, not paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

const tr: ReadOnlyCommand = {
	options: opts("-c -C --complement", "-d --delete", "-s --squeeze-repeats", "-t --truncate-set1", ...HELP),
	operands: text,
};

export const TR: CommandSpec = { readOnly: tr, paths: { operands: "none" } };
