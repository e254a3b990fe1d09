/**
 * expr: it evaluates an expression and prints the result.
 */
import type { CommandSpec } from "./command-spec.ts";
import { inert } from "./read-only-helpers.ts";

export const EXPR: CommandSpec = { readOnly: inert };
