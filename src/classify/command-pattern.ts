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
	const optionalTail = pattern.endsWith(" *");
	const bare = optionalTail ? pattern.slice(0, -2) : pattern;
	const star = bare.indexOf("*");
	// Every match starts with the literal text before the first `*`: a cheap test that rejects most texts.
	const prefix = star === -1 ? bare : bare.slice(0, star);
	const result: CommandPattern = {
		pattern,
		specificity: bare.replaceAll("*", "").length,
		wildcards: pattern.length - pattern.replaceAll("*", "").length,
		matches: optionalTail
			? (text) => text.startsWith(prefix) && (wildcardMatch(bare, text) || wildcardMatch(pattern, text))
			: (text) => text.startsWith(prefix) && wildcardMatch(pattern, text),
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
 * Greedy star matching that backtracks only to the last `*`: O(pattern × text) at worst, never exponential,
 * because the text is model-controlled and may be long.
 */
function wildcardMatch(pattern: string, text: string): boolean {
	let p = 0;
	let t = 0;
	let starP = -1;
	let starT = 0;
	while (t < text.length) {
		if (p < pattern.length && pattern[p] !== "*" && pattern[p] === text[t]) {
			p++;
			t++;
		} else if (p < pattern.length && pattern[p] === "*") {
			starP = p++;
			starT = t;
		} else if (starP !== -1) {
			p = starP + 1;
			t = ++starT;
		} else {
			return false;
		}
	}
	while (p < pattern.length && pattern[p] === "*") p++;
	return p === pattern.length;
}
