/**
 * Looking a command up in the built-in tier table (most specific pattern wins) and in the operator's extra
 * classifications (every match raises).
 */
import { maxTier, type Tier } from "../../policy/tier.ts";
import { type CommandPattern, compareSpecificity, compileCommandPattern } from "../command-pattern.ts";
import { BUILT_IN_COMMAND_TIERS, type CommandTierEntry, UNKNOWN_COMMAND_TIER } from "./command-tier-table.ts";

interface CompiledEntry {
	readonly compiled: CommandPattern;
	readonly tier: Tier;
}

export interface TierMatch {
	readonly tier: Tier;
	/** The pattern that decided, or undefined for the unknown-command default. */
	readonly pattern: string | undefined;
}

/** Patterns indexed by their first word; patterns whose first word has a wildcard are tried for every command. */
const byFirstWord = new Map<string, CompiledEntry[]>();
const wildFirstWord: CompiledEntry[] = [];
for (const entry of BUILT_IN_COMMAND_TIERS) {
	const compiled = { compiled: compileCommandPattern(entry.pattern), tier: entry.tier };
	const first = firstWord(entry.pattern);
	if (first.includes("*")) {
		wildFirstWord.push(compiled);
	} else {
		const bucket = byFirstWord.get(first);
		if (bucket === undefined) byFirstWord.set(first, [compiled]);
		else bucket.push(compiled);
	}
}

function firstWord(text: string): string {
	const space = text.indexOf(" ");
	return space === -1 ? text : text.slice(0, space);
}

export function builtInTier(key: string): TierMatch {
	let best: CompiledEntry | undefined;
	const consider = (candidate: CompiledEntry): void => {
		if (!candidate.compiled.matches(key)) return;
		if (best === undefined) {
			best = candidate;
			return;
		}
		const order = compareSpecificity(candidate.compiled, best.compiled);
		// Equally specific patterns that disagree: the stricter one decides.
		if (order > 0 || (order === 0 && maxTier(candidate.tier, best.tier) === candidate.tier)) best = candidate;
	};
	for (const candidate of byFirstWord.get(firstWord(key)) ?? []) consider(candidate);
	for (const candidate of wildFirstWord) consider(candidate);
	const decided: CompiledEntry | undefined = best;
	return decided === undefined
		? { tier: UNKNOWN_COMMAND_TIER, pattern: undefined }
		: { tier: decided.tier, pattern: decided.compiled.pattern };
}

/** Extra classifications matching any of `texts` (a command's own text and its table key). */
export function matchingExtraTiers(
	texts: readonly string[],
	extras: readonly CommandTierEntry[],
): readonly CommandTierEntry[] {
	return extras.filter((extra) => {
		const compiled = compileCommandPattern(extra.pattern);
		return texts.some((text) => compiled.matches(text));
	});
}
