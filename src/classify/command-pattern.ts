import { compileWildcard } from "../vocabulary/wildcard-pattern.ts";

/**
 * The wildcard syntax of `command` patterns (config rules and the built-in tier table):
 * `*` matches any run of characters (spaces included), everything else is literal, and a trailing ` *` is
 * optional, so `git push *` also matches a bare `git push`.
 */

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
