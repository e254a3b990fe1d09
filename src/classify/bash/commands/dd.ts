/**
 * dd: `if=` is read and `of=` written; it copies raw data, so a device there is privileged.
 */
import type { BashWord } from "../bash-word.ts";
import { fromWord, type PathCandidate } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";

function extractDd(args: readonly BashWord[]): PathCandidate[] {
	const out: PathCandidate[] = [];
	for (const arg of args) {
		if (arg.text.startsWith("if=")) out.push(fromWord(arg, "read", 3));
		if (arg.text.startsWith("of=")) out.push(fromWord(arg, "write", 3));
	}
	return out;
}

const DD_TIERS = [...rows("destructive", ["dd *"])];

export const DD: CommandSpec = { tiers: DD_TIERS, extractPaths: extractDd };
