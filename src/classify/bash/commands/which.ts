/**
 * which: it prints where a command is found on PATH; its operands are names, not paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { text } from "./read-only-helpers.ts";

const which: ReadOnlyCommand = { options: opts("-a", "-s"), operands: text };

export const WHICH: CommandSpec = { readOnly: which, paths: { operands: "none" } };
