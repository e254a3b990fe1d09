/**
 * Looking a command up in the built-in tier table (most specific pattern wins) and in the operator's extra
 * classifications (every match raises). Patterns use the wildcard syntax of `command` patterns (config rules and
 * the built-in tier table alike): `*` matches any run of characters (spaces included), everything else is
 * literal, and a trailing ` *` is optional, so `git push *` also matches a bare `git push`.
 */
import { maxTier, type Tier } from "../../vocabulary/tier.ts";
import { compileWildcard } from "../../vocabulary/wildcard-pattern.ts";
import { BUILT_IN_COMMAND_TIERS, type CommandTierEntry, UNKNOWN_COMMAND_TIER } from "./command-tier-table.ts";
import { commandSpec } from "./commands/index.ts";
import { valueTaking } from "./commands/option-notation.ts";
import { afterGlobalOptions } from "./option-scan.ts";
import type { OptionSpec } from "./read-only-spec.ts";

export interface CommandPattern {
	readonly pattern: string;
	/** Literal characters that must be present (an optional trailing ` *` adds none): the more, the more specific. */
	readonly specificity: number;
	/** Number of `*`: between equally long patterns, the one with fewer wildcards is the more specific. */
	readonly wildcards: number;
	matches(text: string): boolean;
}

const compiled = new Map<string, CommandPattern>();
const MAX_CACHED_PATTERNS = 4096;

export function compileCommandPattern(pattern: string): CommandPattern {
	const cached = compiled.get(pattern);
	if (cached !== undefined) return cached;
	// Matching is the policy's own (one implementation of the syntax for rules and the built-in table alike).
	const matcher = compileWildcard(pattern);
	const bare = pattern.endsWith(" *") ? pattern.slice(0, -2) : pattern;
	const result: CommandPattern = {
		pattern,
		specificity: bare.replaceAll("*", "").length,
		wildcards: pattern.length - pattern.replaceAll("*", "").length,
		matches: matcher.test,
	};
	if (compiled.size >= MAX_CACHED_PATTERNS) compiled.clear();
	compiled.set(pattern, result);
	return result;
}

/** Positive when `a` is more specific than `b` (see `specificity` and `wildcards`). */
export function compareSpecificity(a: CommandPattern, b: CommandPattern): number {
	return a.specificity !== b.specificity ? a.specificity - b.specificity : b.wildcards - a.wildcards;
}

export function matchesCommandPattern(pattern: string, text: string): boolean {
	return compileCommandPattern(pattern).matches(text);
}

/**
 * The text the built-in tier table is matched against: the command's basename followed by its arguments, with
 * the global options some tools accept before their subcommand removed, so `git -C repo push -f` is looked up
 * as `git push -f`. Config rules still see the command's real text.
 */
export function tableKey(name: string, args: readonly string[]): string {
	return [name, ...withoutGlobalOptions(name, args)].join(" ");
}

/** The arguments from the subcommand on, for tools with global options (`git -C x push -f` → `push -f`). */
function withoutGlobalOptions(name: string, args: readonly string[]): readonly string[] {
	const withValue = registeredGlobalValue(name);
	if (withValue === undefined) return args;
	if (commandSpec(name)?.plusGlobalOptions !== true) return afterGlobalOptions(args, withValue);
	const optionLike = args.map((arg) => (arg.startsWith("+") ? `-${arg}` : arg));
	return args.slice(args.length - afterGlobalOptions(optionLike, withValue).length);
}

/** The value-taking global options of a registered command, worked out once per command. */
const REGISTERED_GLOBAL_VALUE = new WeakMap<readonly OptionSpec[], ReadonlySet<string>>();

function registeredGlobalValue(name: string): ReadonlySet<string> | undefined {
	const options = commandSpec(name)?.globalOptions;
	if (options === undefined) return undefined;
	let withValue = REGISTERED_GLOBAL_VALUE.get(options);
	if (withValue === undefined) {
		withValue = valueTaking(options);
		REGISTERED_GLOBAL_VALUE.set(options, withValue);
	}
	return withValue;
}

/** A table row as indexed; its pattern is compiled when a command first reaches it (adr/0028). */
interface IndexedEntry {
	readonly pattern: string;
	readonly tier: Tier;
	/** Position in the table: candidates are considered in table order, as ties depend on it. */
	readonly order: number;
	/** Set on first use and kept: not evicted with the shared cache that user rules' patterns may fill. */
	compiled?: CommandPattern;
}

function compiledOf(entry: IndexedEntry): CommandPattern {
	entry.compiled ??= compileCommandPattern(entry.pattern);
	return entry.compiled;
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
	readonly bySecondWord: Map<string, IndexedEntry[]>;
	readonly rest: IndexedEntry[];
}

const byFirstWord = new Map<string, FirstWordBucket>();
/** Patterns whose first word has a wildcard: tried for every command. */
const wildFirstWord: IndexedEntry[] = [];
for (const [order, row] of BUILT_IN_COMMAND_TIERS.entries()) {
	const entry: IndexedEntry = { pattern: row.pattern, tier: row.tier, order };
	const first = firstWord(entry.pattern);
	if (first.includes("*")) {
		wildFirstWord.push(entry);
		continue;
	}
	let bucket = byFirstWord.get(first);
	if (bucket === undefined) {
		bucket = { bySecondWord: new Map(), rest: [] };
		byFirstWord.set(first, bucket);
	}
	const second = secondWord(entry.pattern);
	if (second === undefined || second === "" || second.includes("*")) {
		bucket.rest.push(entry);
	} else {
		const list = bucket.bySecondWord.get(second);
		if (list === undefined) bucket.bySecondWord.set(second, [entry]);
		else list.push(entry);
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

const NONE: readonly IndexedEntry[] = [];

export function builtInTier(key: string): TierMatch {
	let best: IndexedEntry | undefined;
	const consider = (candidate: IndexedEntry): void => {
		const compiled = compiledOf(candidate);
		if (!compiled.matches(key)) return;
		if (best === undefined) {
			best = candidate;
			return;
		}
		const order = compareSpecificity(compiled, compiledOf(best));
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
	const decided: IndexedEntry | undefined = best;
	return decided === undefined
		? { tier: UNKNOWN_COMMAND_TIER, pattern: undefined }
		: { tier: decided.tier, pattern: decided.pattern };
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
