/**
 * shasum: it prints or checks checksums of the files it is given. Never proven read.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const SHASUM: CommandSpec = { paths: { operands: "read", options: opts("-a=", "--algorithm=") } };
