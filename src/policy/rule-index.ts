/**
 * Rule indexes, built once per loaded policy so a decision looks at a handful of candidate rules instead of all
 * of them: command and tool rules by their literal first word, path rules by their literal leading directory
 * segments. Patterns that open with a wildcard sit in a small list every lookup visits.
 */

import { firstWordOf } from "../vocabulary/wildcard-pattern.ts";
import type { RuleAction } from "./config-schema.ts";
import { PATH_INDEX_DEPTH, type PathMatchScope, pathFormMatches, relativeInside } from "./path-pattern.ts";
import type { PathRule, PolicyRule, WildcardRule } from "./policy-rule.ts";

export interface WildcardIndex {
	readonly byFirstWord: ReadonlyMap<string, readonly WildcardRule[]>;
	readonly open: readonly WildcardRule[];
}

export interface PathIndex {
	readonly absolute: ReadonlyMap<string, readonly PathRule[]>;
	readonly relative: ReadonlyMap<string, readonly PathRule[]>;
}

export interface ActionRuleIndex {
	readonly tool: WildcardIndex;
	readonly command: WildcardIndex;
	readonly path: PathIndex;
}

export type RuleIndex = Readonly<Record<RuleAction, ActionRuleIndex>>;

export function buildRuleIndex(rules: readonly PolicyRule[]): RuleIndex {
	return {
		allow: buildActionIndex(rules.filter((r) => r.ref.action === "allow")),
		ask: buildActionIndex(rules.filter((r) => r.ref.action === "ask")),
		deny: buildActionIndex(rules.filter((r) => r.ref.action === "deny")),
	};
}

function buildActionIndex(rules: readonly PolicyRule[]): ActionRuleIndex {
	const wildcard = (surface: "tool" | "command"): WildcardIndex => {
		const byFirstWord = new Map<string, WildcardRule[]>();
		const open: WildcardRule[] = [];
		for (const rule of rules) {
			if (rule.kind !== "wildcard" || rule.surface !== surface) continue;
			const key = rule.matcher.firstWord;
			if (key === null) open.push(rule);
			else push(byFirstWord, key, rule);
		}
		for (const list of byFirstWord.values()) inConfigOrder(list);
		return { byFirstWord, open: inConfigOrder(open) };
	};
	const absolute = new Map<string, PathRule[]>();
	const relative = new Map<string, PathRule[]>();
	for (const rule of rules) {
		if (rule.kind !== "path") continue;
		push(rule.matcher.anchor === "absolute" ? absolute : relative, rule.matcher.keySegments.join("/"), rule);
	}
	for (const list of [...absolute.values(), ...relative.values()]) inConfigOrder(list);
	return { tool: wildcard("tool"), command: wildcard("command"), path: { absolute, relative } };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}

/**
 * Every list of the index is kept in config order (ascending `seq`), so a lookup can stop at its first match,
 * and at the first rule no earlier than the best found so far.
 */
function inConfigOrder<T extends { readonly seq: number }>(list: T[]): T[] {
	return list.sort((a, b) => a.seq - b.seq);
}

/** The earliest rule (config order) whose pattern matches any of `texts`. */
export function findWildcardRule(index: WildcardIndex, texts: readonly string[]): WildcardRule | null {
	let best: WildcardRule | null = null;
	for (const text of texts) best = earliestWildcardRule(index, text, best);
	return best;
}

/** The earliest rule matching `text`, or `earlier` when no matching rule comes before it. */
export function earliestWildcardRule<R extends { readonly seq: number }>(
	index: WildcardIndex,
	text: string,
	earlier: R | null = null,
): WildcardRule | R | null {
	const keyed = index.byFirstWord.get(firstWordOf(text));
	const best = keyed === undefined ? earlier : earliestWildcardIn(keyed, text, earlier);
	return earliestWildcardIn(index.open, text, best);
}

function earliestWildcardIn<R extends { readonly seq: number }>(
	rules: readonly WildcardRule[],
	text: string,
	best: WildcardRule | R | null,
): WildcardRule | R | null {
	for (const rule of rules) {
		if (best !== null && rule.seq >= best.seq) return best;
		if (rule.matcher.test(text)) return rule;
	}
	return best;
}

/** How a path lookup filters and scopes rules (see `findPathRule`). */
export interface PathLookup {
	readonly accept: (rule: PathRule) => boolean;
	readonly scopeOf: (rule: PathRule) => PathMatchScope;
}

/** The earliest rule that `accept`s and whose pattern matches the absolute path `form`. */
export function findPathRule(
	index: PathIndex,
	form: string,
	cwd: string,
	accept: (rule: PathRule) => boolean,
	scopeOf: (rule: PathRule) => PathMatchScope,
): PathRule | null {
	return earliestPathRule<PathRule>(index, form, cwd, { accept, scopeOf }, null);
}

/** `findPathRule`, or `earlier` when no matching rule comes before it. */
export function earliestPathRule<R extends { readonly seq: number }>(
	index: PathIndex,
	form: string,
	cwd: string,
	lookup: PathLookup,
	earlier: R | null,
): PathRule | R | null {
	let best = earliestUnderPrefixes(index.absolute, form, form, cwd, lookup, earlier);
	const relative = relativeInside(cwd, form);
	if (relative !== null) best = earliestUnderPrefixes(index.relative, relative, form, cwd, lookup, best);
	// Outside the cwd only relative `**` patterns can match, and they all sit at the root key.
	else best = earliestPathIn(index.relative.get(""), form, cwd, lookup, best);
	return best;
}

/** Visits the rules keyed "", then by the first 1..PATH_INDEX_DEPTH segments of `keyPath` joined by `/`. */
function earliestUnderPrefixes<R extends { readonly seq: number }>(
	byKey: ReadonlyMap<string, readonly PathRule[]>,
	keyPath: string,
	form: string,
	cwd: string,
	lookup: PathLookup,
	earlier: R | null,
): PathRule | R | null {
	let best = earliestPathIn(byKey.get(""), form, cwd, lookup, earlier);
	let start = keyPath.charCodeAt(0) === 47 ? 1 : 0;
	let key = "";
	for (let depth = 1; depth <= PATH_INDEX_DEPTH; depth++) {
		const slash = keyPath.indexOf("/", start);
		const segment = slash < 0 ? keyPath.slice(start) : keyPath.slice(start, slash);
		if (segment === "") return best;
		key = depth === 1 ? segment : `${key}/${segment}`;
		best = earliestPathIn(byKey.get(key), form, cwd, lookup, best);
		if (slash < 0) return best;
		start = slash + 1;
	}
	return best;
}

function earliestPathIn<R extends { readonly seq: number }>(
	rules: readonly PathRule[] | undefined,
	form: string,
	cwd: string,
	lookup: PathLookup,
	best: PathRule | R | null,
): PathRule | R | null {
	if (rules === undefined) return best;
	for (const rule of rules) {
		if (best !== null && rule.seq >= best.seq) return best;
		if (lookup.accept(rule) && pathFormMatches(rule.matcher, form, cwd, lookup.scopeOf(rule))) return rule;
	}
	return best;
}
