/**
 * return: the shell builtin.
 */
import type { CommandSpec } from "./command-spec.ts";
import { inert } from "./read-only-helpers.ts";

export const RETURN: CommandSpec = { readOnly: inert };
