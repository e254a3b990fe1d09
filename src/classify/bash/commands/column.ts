/**
 * column: it formats the files it is given into columns. Never proven read.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const COLUMN: CommandSpec = { paths: { operands: "read", options: opts("-s=", "-c=", "-o=", "-t=") } };
