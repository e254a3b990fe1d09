/**
 * link: it makes a second name for a file (its last operand is written). Never proven read.
 */
import type { CommandSpec } from "./command-spec.ts";

export const LINK: CommandSpec = { paths: { operands: "last-write" } };
