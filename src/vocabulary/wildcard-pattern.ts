/**
 * `tool` and `command` patterns: `*` matches any run of characters (spaces, slashes and newlines too), everything
 * else is literal, the whole string must match, case-sensitive. A trailing ` *` is optional, so `git push *`
 * matches `git push` and `git push origin main` but not `git pushx`.
 *
 * Matching is a linear scan over the literal segments (no RegExp), so no pattern can backtrack catastrophically
 * on a long command line.
 */

export interface WildcardMatcher {
	readonly pattern: string;
	/**
	 * The pattern's literal text before its first space, when no `*` occurs there: every string the pattern
	 * matches has exactly this first word, which is what rule indexes key on. Null when the first word is open.
	 */
	readonly firstWord: string | null;
	readonly test: (text: string) => boolean;
}

export function compileWildcard(pattern: string): WildcardMatcher {
	const optionalTail = pattern.endsWith(" *");
	const full = segmentMatcher(pattern);
	const test = optionalTail ? either(full, segmentMatcher(pattern.slice(0, -2))) : full;
	return { pattern, firstWord: patternFirstWord(pattern), test };
}

/** The index key of a text: everything before the first space. */
export function firstWordOf(text: string): string {
	const space = text.indexOf(" ");
	return space < 0 ? text : text.slice(0, space);
}

function patternFirstWord(pattern: string): string | null {
	const head = firstWordOf(pattern);
	return head.includes("*") ? null : head;
}

function either(a: (t: string) => boolean, b: (t: string) => boolean): (t: string) => boolean {
	return (text) => a(text) || b(text);
}

function segmentMatcher(pattern: string): (text: string) => boolean {
	const segments = pattern.split("*");
	if (segments.length === 1) return (text) => text === pattern;
	const head = segments[0] ?? "";
	const tail = segments[segments.length - 1] ?? "";
	const middle = segments.slice(1, -1).filter((s) => s !== "");
	const fixed = head.length + tail.length;
	return (text) => {
		if (text.length < fixed || !text.startsWith(head) || !text.endsWith(tail)) return false;
		const end = text.length - tail.length;
		let position = head.length;
		// Leftmost placement of each middle segment is optimal: `*` on both sides absorbs whatever is skipped.
		for (const segment of middle) {
			const found = text.indexOf(segment, position);
			if (found < 0 || found + segment.length > end) return false;
			position = found + segment.length;
		}
		return true;
	};
}
