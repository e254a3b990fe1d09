/**
 * awk (and gawk, mawk, nawk): never proven read; its program is text the refiner reads for `system()`, pipes
 * (privileged) and print redirection (write). A program from a file (`-f`), an included source (`-i`) or a
 * loaded extension (`-l`) cannot be seen: privileged. The first operand is the program unless `-f` gives it.
 */
import type { TierRaise } from "../../tier-raise.ts";
import { hasOption, scanArgs } from "../option-scan.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

const AWK_OPTIONS = opts(
	"-v= --assign=",
	"-F= --field-separator=",
	"-f=@ --file=@",
	"-i=@ --include=@",
	"-l=@",
);
const AWK_VALUE = valueTaking(AWK_OPTIONS);

function refineAwk(args: readonly string[]): TierRaise | undefined {
	const scanned = scanArgs(args, { withValue: AWK_VALUE, stopAtOperand: false });
	if (hasOption(scanned, "-f", "--file", "-i", "--include", "-l", "--load")) {
		return { tier: "privileged", reason: "awk runs a program file that cannot be analysed" };
	}
	const program = args[scanned.operands[0] ?? -1] ?? "";
	if (/\bsystem\s*\(/.test(program) || /(^|[^|])\|(?!\|)/.test(program)) {
		return { tier: "privileged", reason: "the awk program runs shell commands" };
	}
	if (/\bprintf?\b[^;{}]*>/.test(program))
		return { tier: "write", reason: "the awk program writes to a file" };
	return undefined;
}

export const AWK: CommandSpec = {
	refine: refineAwk,
	paths: { operands: "read", skipLeading: 1, leadingSuppliedBy: ["-f", "--file"], options: AWK_OPTIONS },
};

/** gawk, mawk, nawk: awk's program raises; their paths are read like an unknown command's. */
export const AWK_OTHER_NAMES: CommandSpec = { refine: refineAwk };
