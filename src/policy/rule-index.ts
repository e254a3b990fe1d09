/**
 * Rule indexes, built once per loaded policy so a decision looks at a handful of candidate rules instead of all
 * of them: command and tool rules by their literal first word, path rules by their literal leading directory
 * segments. Patterns that open with a wildcard sit in a small list every lookup visits.
 */
import type { RuleAction } from "./config-schema.ts";
import { PATH_INDEX_DEPTH, type PathMatchScope, pathFormMatches, relativeInside } from "./path-pattern.ts";
import type { PathRule, PolicyRule, WildcardRule } from "./policy-rule.ts";
import { firstWordOf } from "./wildcard-pattern.ts";

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
		return { byFirstWord, open };
	};
	const absolute = new Map<string, PathRule[]>();
	const relative = new Map<string, PathRule[]>();
	for (const rule of rules) {
		if (rule.kind !== "path") continue;
		push(rule.matcher.anchor === "absolute" ? absolute : relative, rule.matcher.keySegments.join("/"), rule);
	}
	return { tool: wildcard("tool"), command: wildcard("command"), path: { absolute, relative } };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}

/** The earliest rule (config order) whose pattern matches any of `texts`. */
export function findWildcardRule(index: WildcardIndex, texts: readonly string[]): WildcardRule | null {
	let best: WildcardRule | null = null;
	const consider = (rule: WildcardRule, text: string): void => {
		if ((best === null || rule.seq < best.seq) && rule.matcher.test(text)) best = rule;
	};
	for (const text of texts) {
		for (const rule of index.byFirstWord.get(firstWordOf(text)) ?? []) consider(rule, text);
		for (const rule of index.open) consider(rule, text);
	}
	return best;
}

/** The earliest rule that `accept`s and whose pattern matches the absolute path `form`. */
export function findPathRule(
	index: PathIndex,
	form: string,
	cwd: string,
	accept: (rule: PathRule) => boolean,
	scopeOf: (rule: PathRule) => PathMatchScope,
): PathRule | null {
	let best: PathRule | null = null;
	const consider = (rules: readonly PathRule[] | undefined): void => {
		for (const rule of rules ?? []) {
			if (best !== null && rule.seq >= best.seq) continue;
			if (accept(rule) && pathFormMatches(rule.matcher, form, cwd, scopeOf(rule))) best = rule;
		}
	};
	visitPrefixes(form, (key) => consider(index.absolute.get(key)));
	const relative = relativeInside(cwd, form);
	if (relative !== null) visitPrefixes(relative, (key) => consider(index.relative.get(key)));
	// Outside the cwd only relative `**` patterns can match, and they all sit at the root key.
	else consider(index.relative.get(""));
	return best;
}

/** Calls `visit` with "", then the first 1..PATH_INDEX_DEPTH segments of `path` joined by `/`. */
function visitPrefixes(path: string, visit: (key: string) => void): void {
	visit("");
	let start = path.charCodeAt(0) === 47 ? 1 : 0;
	let key = "";
	for (let depth = 1; depth <= PATH_INDEX_DEPTH; depth++) {
		const slash = path.indexOf("/", start);
		const segment = slash < 0 ? path.slice(start) : path.slice(start, slash);
		if (segment === "") return;
		key = depth === 1 ? segment : `${key}/${segment}`;
		visit(key);
		if (slash < 0) return;
		start = slash + 1;
	}
}
