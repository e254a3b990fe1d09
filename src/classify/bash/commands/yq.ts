/** yq: never proven read; `-i` edits files in place (write). The first operand is the expression. */
import type { TierRaise } from "../../tier-raise.ts";
import { hasShortFlag } from "../option-scan.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

function refineYq(args: readonly string[]): TierRaise | undefined {
	return hasShortFlag(args, "i") || args.includes("--inplace")
		? { tier: "write", reason: "yq -i edits files in place" }
		: undefined;
}

export const YQ: CommandSpec = {
	refine: refineYq,
	paths: {
		operands: "read",
		skipLeading: 1,
		options: opts("-o= --output-format=", "-p= --input-format=", "-I="),
	},
};
