/**
 * unzip: it reads the archive and writes where `-d` says (the current directory otherwise); listing (`-l`, `-t`,
 * …) writes nothing.
 */
import type { BashWord } from "../bash-word.ts";
import { hasOption, scanArgs } from "../option-scan.ts";
import { type PathCandidate, wordAt } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";

function extractUnzip(args: readonly BashWord[]): PathCandidate[] {
	const scanned = scanArgs(
		args.map((arg) => arg.text),
		{ withValue: new Set(["-d", "-x", "-P"]), stopAtOperand: false },
	);
	const out = wordAt(args, scanned.operands[0] ?? -1, "read");
	const listing = hasOption(scanned, "-l", "-Z", "-t", "-v", "-p", "-c");
	if (listing) return out;
	const target = scanned.options.find((option) => option.name === "-d");
	if (target?.valueIndex !== undefined) out.push(...wordAt(args, target.valueIndex, "write"));
	else out.push({ access: "write", typed: ".", value: "." });
	return out;
}

const UNZIP_TIERS = [...rows("write", ["unzip *"])];

export const UNZIP: CommandSpec = { tiers: UNZIP_TIERS, extractPaths: extractUnzip };
