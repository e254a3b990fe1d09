/**
 * zcat: it prints the decompressed files it is given. Never proven read.
 */
import type { CommandSpec } from "./command-spec.ts";

export const ZCAT: CommandSpec = { paths: { operands: "read" } };
