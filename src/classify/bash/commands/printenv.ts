/**
 * printenv: it prints the environment.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

const printenv: ReadOnlyCommand = { options: opts("-0 --null", ...HELP), operands: text };

export const PRINTENV: CommandSpec = { readOnly: printenv };
