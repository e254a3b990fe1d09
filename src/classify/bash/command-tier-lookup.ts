/**
 * Looking a command up in the built-in tier table (most specific pattern wins) and in the operator's extra
 * classifications (every match raises).
 */
import { maxTier, type Tier } from "../../vocabulary/tier.ts";
import { type CommandPattern, compareSpecificity, compileCommandPattern } from "../command-pattern.ts";
import { BUILT_IN_COMMAND_TIERS, type CommandTierEntry, UNKNOWN_COMMAND_TIER } from "./command-tier-table.ts";

interface CompiledEntry {
	readonly compiled: CommandPattern;
	readonly tier: Tier;
	/** Position in the table: candidates are considered in table order, as ties depend on it. */
	readonly order: number;
}

export interface TierMatch {
	readonly tier: Tier;
	/** The pattern that decided, or undefined for the unknown-command default. */
	readonly pattern: string | undefined;
}

/**
 * Patterns whose first word is literal, by that word, then by their second word when it is literal too: such a
 * pattern only matches texts with exactly those two words (`git push *` never matches `git status`), and a tool
 * like git has over a hundred patterns. Patterns with a wildcard in the second word (or none) sit in `rest`.
 */
interface FirstWordBucket {
	readonly bySecondWord: Map<string, CompiledEntry[]>;
	readonly rest: CompiledEntry[];
}

const byFirstWord = new Map<string, FirstWordBucket>();
/** Patterns whose first word has a wildcard: tried for every command. */
const wildFirstWord: CompiledEntry[] = [];
for (const [order, entry] of BUILT_IN_COMMAND_TIERS.entries()) {
	const compiled: CompiledEntry = { compiled: compileCommandPattern(entry.pattern), tier: entry.tier, order };
	const first = firstWord(entry.pattern);
	if (first.includes("*")) {
		wildFirstWord.push(compiled);
		continue;
	}
	let bucket = byFirstWord.get(first);
	if (bucket === undefined) {
		bucket = { bySecondWord: new Map(), rest: [] };
		byFirstWord.set(first, bucket);
	}
	const second = secondWord(entry.pattern);
	if (second === undefined || second === "" || second.includes("*")) {
		bucket.rest.push(compiled);
	} else {
		const list = bucket.bySecondWord.get(second);
		if (list === undefined) bucket.bySecondWord.set(second, [compiled]);
		else list.push(compiled);
	}
}

function firstWord(text: string): string {
	const space = text.indexOf(" ");
	return space === -1 ? text : text.slice(0, space);
}

/** The text between the first and the second space (or the end); undefined when there is no space. */
function secondWord(text: string): string | undefined {
	const space = text.indexOf(" ");
	if (space === -1) return undefined;
	const next = text.indexOf(" ", space + 1);
	return next === -1 ? text.slice(space + 1) : text.slice(space + 1, next);
}

const NONE: readonly CompiledEntry[] = [];

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
	const bucket = byFirstWord.get(firstWord(key));
	if (bucket !== undefined) {
		const second = secondWord(key);
		const keyed = (second === undefined ? undefined : bucket.bySecondWord.get(second)) ?? NONE;
		const rest = bucket.rest;
		// Both lists are in table order: merge them so candidates come in the order of the table.
		let i = 0;
		let j = 0;
		while (i < keyed.length || j < rest.length) {
			const a = keyed[i];
			const b = rest[j];
			if (b === undefined || (a !== undefined && a.order < b.order)) {
				if (a !== undefined) consider(a);
				i++;
			} else {
				consider(b);
				j++;
			}
		}
	}
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
