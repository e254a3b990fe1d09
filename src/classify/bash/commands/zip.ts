/**
 * zip: it writes the archive (its first operand) from the files after it.
 */
import type { BashWord } from "../bash-word.ts";
import { scanArgs } from "../option-scan.ts";
import { type PathCandidate, wordAt } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";

function extractZip(args: readonly BashWord[]): PathCandidate[] {
	const scanned = scanArgs(
		args.map((arg) => arg.text),
		{ withValue: new Set(["-x", "-i", "-P", "-b", "-n", "-t", "-tt"]), stopAtOperand: false },
	);
	return scanned.operands.flatMap((index, position) =>
		wordAt(args, index, position === 0 ? "write" : "read"),
	);
}

const ZIP_TIERS = [...rows("write", ["zip *"])];

export const ZIP: CommandSpec = { tiers: ZIP_TIERS, extractPaths: extractZip };
