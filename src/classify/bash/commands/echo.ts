/**
 * echo: it prints its words, and reads no options from them that could do more.
 */
import type { CommandSpec } from "./command-spec.ts";
import { inert } from "./read-only-helpers.ts";

export const ECHO: CommandSpec = { readOnly: inert, paths: { operands: "none" } };
