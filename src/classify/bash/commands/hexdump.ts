/**
 * hexdump: it dumps the files it is given. Never proven read.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const HEXDUMP: CommandSpec = {
	paths: { operands: "read", options: opts("-n=", "-s=", "-e=", "-f=") },
};
