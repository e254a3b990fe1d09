/**
 * bat: it prints the files it is given, highlighted. Never proven read.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const BAT: CommandSpec = {
	paths: {
		operands: "read",
		options: opts("-l=", "--language=", "-r=", "--line-range=", "-H=", "--highlight-line="),
	},
};
