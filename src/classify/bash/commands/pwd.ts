/**
 * pwd: it prints the working directory.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { none } from "./read-only-helpers.ts";

const pwd: ReadOnlyCommand = { options: opts("-L", "-P"), operands: none, optionsFirst: true };

export const PWD: CommandSpec = { readOnly: pwd };
