/**
 * join: it joins two sorted files on a field. Never proven read.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const JOIN: CommandSpec = {
	paths: { operands: "read", options: opts("-t=", "-1=", "-2=", "-j=", "-o=", "-a=", "-v=", "-e=") },
};
