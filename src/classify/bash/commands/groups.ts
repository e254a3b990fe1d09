/**
 * groups: it prints the groups of a user.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

export const GROUPS: CommandSpec = { readOnly: { options: opts(...HELP), operands: text } };
