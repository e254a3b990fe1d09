/**
 * Rules as the decision sees them: compiled once at load time, each carrying where it was written, and indexed
 * so a decision looks at a handful of candidate rules instead of all of them: command and tool rules by their
 * literal first word, path rules by their literal leading directory segments. Patterns that open with a wildcard
 * sit in a small list every lookup visits.
 *
 * Which rule applies to one part of an action is two questions with different answers on purpose:
 * - does a deny/ask rule MATCH the part? Any surface, any path, any spelling of a path or command;
 * - does an allow rule COVER the part? Its command text exactly, or every path it touches (for a part without a
 *   command, or a command whose only effects are its paths), in every form: a symlink whose target the allow
 *   does not name is not covered.
 */
import type { ActionPart, ClassifiedAction, CommandUnit, PathTouch } from "../classify/action.ts";
import { type DecisionMode, type Tier, tierRank } from "../vocabulary/tier.ts";
import { compileWildcard, firstWordOf, type WildcardMatcher } from "../vocabulary/wildcard-pattern.ts";
import type { ConfigRule, RuleAction, RuleSurface } from "./config-schema.ts";
import {
	compilePathPattern,
	PATH_INDEX_DEPTH,
	type PathMatcher,
	type PathMatchScope,
	pathFormMatches,
	relativeInside,
} from "./path-pattern.ts";

export const BUILT_IN = "built-in";

/** Where a rule came from: a config file and a JSON path in it, or `built-in` (line 0) for the defaults. */
export interface ConfigLocation {
	readonly file: string;
	readonly jsonPath: string;
	readonly line: number;
}

export function builtInLocation(jsonPath = ""): ConfigLocation {
	return { file: BUILT_IN, jsonPath, line: 0 };
}

export type PathSurface = Exclude<RuleSurface, "tool" | "command">;

/** A rule's provenance: enough for a dialog, a log line or the model to name it. */
export interface RuleRef {
	readonly surface: RuleSurface;
	readonly pattern: string;
	readonly action: RuleAction;
	readonly reason: string | null;
	readonly origin: ConfigLocation;
	/** When a human saved it from a dialog. */
	readonly saved?: string;
	/** The `agents` section it belongs to: its ask is answered by a human alone (adr/0022). */
	readonly agent?: string;
}

/** The rule-like reference behind a tier's mode: a built-in default or a `tiers` override. */
export interface TierRef {
	readonly surface: "tier";
	readonly pattern: Tier;
	readonly action: DecisionMode;
	readonly reason: null;
	readonly origin: ConfigLocation;
	/** The `agents` section that set this mode: its ask holds against grants, allow rules and links (adr/0022). */
	readonly agent?: string;
}

/**
 * What an allow rule saved from a dialog may cover, as a session grant may: parts no riskier than the one
 * approved (`maxTier`), and inside the working directory when that one stayed inside (`insideCwd`).
 */
export interface RuleLimit {
	readonly maxTier: Tier | null;
	readonly insideCwd: boolean;
}

/** One of a rule's `examples`: a call the rule must (`match`) or must not (`notMatch`) match or cover. */
export interface RuleExample {
	readonly expect: "match" | "notMatch";
	readonly text: string;
	/** Where the example is written (`rules[3].examples.match[1]`), for the error it may become. */
	readonly origin: ConfigLocation;
}

interface CompiledRuleBase {
	readonly ref: RuleRef;
	/** Null for a rule without `maxTier` or `insideCwd`: it covers whatever its pattern covers. */
	readonly limit: RuleLimit | null;
	/** Position over all rules in force (user file first): ties between matching rules go to the lowest. */
	readonly seq: number;
	/** Tested when the policy is built with the bash grammar at hand (rule-examples.ts). */
	readonly examples: readonly RuleExample[];
}

export interface WildcardRule extends CompiledRuleBase {
	readonly kind: "wildcard";
	readonly surface: "tool" | "command";
	readonly matcher: WildcardMatcher;
}

export interface PathRule extends CompiledRuleBase {
	readonly kind: "path";
	readonly surface: PathSurface;
	readonly matcher: PathMatcher;
}

export type PolicyRule = WildcardRule | PathRule;

/** Compiles one config rule. Throws only if picomatch rejects the glob; the loader turns that into a config error. */
export function compileRule(
	rule: ConfigRule,
	origin: ConfigLocation,
	seq: number,
	homeDir: string,
	examples: readonly RuleExample[],
	agent: string | null = null,
): PolicyRule {
	const ref = {
		surface: rule.surface,
		pattern: rule.pattern,
		action: rule.action,
		reason: rule.reason ?? null,
		origin,
		...(rule.saved === undefined ? {} : { saved: rule.saved }),
		...(agent === null ? {} : { agent }),
	};
	const limit =
		rule.maxTier === undefined && rule.insideCwd === undefined
			? null
			: { maxTier: rule.maxTier ?? null, insideCwd: rule.insideCwd ?? false };
	if (rule.surface === "tool" || rule.surface === "command") {
		return {
			kind: "wildcard",
			surface: rule.surface,
			ref,
			limit,
			seq,
			examples,
			matcher: compileWildcard(rule.pattern),
		};
	}
	return {
		kind: "path",
		surface: rule.surface,
		ref,
		limit,
		seq,
		examples,
		matcher: compilePathPattern(rule.pattern, homeDir),
	};
}

/** Whether a rule's limit lets it cover a part at `tier` (the part's tier after raise-only floors). */
export function withinRuleLimit(limit: RuleLimit | null, part: ActionPart, tier: Tier): boolean {
	if (limit === null) return true;
	if (limit.maxTier !== null && tierRank(tier) > tierRank(limit.maxTier)) return false;
	return !limit.insideCwd || part.paths.every((touch) => !touch.outsideCwd);
}

/**
 * Every spelling a deny, ask or tier-raising `command` pattern is tried against: the command text, the same
 * with the command word reduced to its basename (`/bin/rm -rf x` → `rm -rf x`), and the text behind each
 * plain-word wrapper it was unwrapped from (`sudo rm -rf x`). Allow rules and grants see only the text itself:
 * widening is safe only in the strict direction.
 */
export function strictCommandTexts(unit: CommandUnit): string[] {
	const texts = [unit.text];
	const word = unit.argv[0];
	if (word !== undefined && word !== unit.name && unit.text.startsWith(word)) {
		texts.push(`${unit.name}${unit.text.slice(word.length)}`);
	}
	const wrappers = unit.via.filter((wrapper) => PLAIN_WORD.test(wrapper));
	for (let from = wrappers.length - 1; from >= 0; from--) {
		texts.push(`${wrappers.slice(from).join(" ")} ${unit.text}`);
	}
	return texts;
}

/** `sudo`, `env FOO=1`, `/usr/bin/time` — not constructs such as `$(…)` or `<(…)`. */
const PLAIN_WORD = /^[\w./+-][\w./+= -]*$/;

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

/** The earliest rule (config order) matching `text`, or `earlier` when no matching rule comes before it. */
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

/** How a path lookup filters and scopes rules (see `earliestPathRule`). */
export interface PathLookup {
	readonly accept: (rule: PathRule) => boolean;
	readonly scopeOf: (rule: PathRule) => PathMatchScope;
}

/**
 * The earliest rule (config order) that `lookup` accepts and whose pattern matches the absolute path `form`, or
 * `earlier` when no matching rule comes before it.
 */
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

export function surfaceApplies(surface: PathSurface, touch: PathTouch): boolean {
	switch (surface) {
		case "read":
			return touch.access === "read";
		case "write":
			return touch.access === "write";
		case "path":
			return true;
		case "outside-cwd":
			return touch.outsideCwd;
	}
}

/** The forms a touch can be named by; one when no symlink is involved. */
export function touchForms(touch: PathTouch): readonly string[] {
	return touch.absolute === touch.resolved ? [touch.absolute] : [touch.absolute, touch.resolved];
}

/** The earliest deny or ask rule (from `index`) that matches the part on any surface. */
export function findMatchingRule(
	index: ActionRuleIndex,
	action: ClassifiedAction,
	part: ActionPart,
	cwd: string,
): PolicyRule | null {
	// Each lookup is bounded by the best rule so far: it returns an earlier match or that rule.
	let best: PolicyRule | null = earliestWildcardRule(index.tool, action.tool);
	if (part.command) {
		for (const text of strictCommandTexts(part.command))
			best = earliestWildcardRule(index.command, text, best);
	}
	for (const touch of part.paths) {
		const lookup: PathLookup = {
			accept: (rule) => surfaceApplies(rule.surface, touch),
			scopeOf: matchAnywhere,
		};
		for (const form of touchForms(touch)) best = earliestPathRule(index.path, form, cwd, lookup, best);
	}
	return best;
}

/**
 * An allow rule (from `index`) that covers the whole part: a `tool` rule on the action's tool; else for a part
 * with a command a `command` rule on its text; else for a part with paths — or a command whose only effects are
 * its paths (`touch src/x`, `echo hi > src/y`) — rules covering every form of every path it writes (the rule
 * for the first one is returned). The reads of such a command need a covering rule only when reads are not
 * allowed without asking anyway (`readsRunUnasked`): `cp a src/b` is then what the read and write tools would do.
 */
export function findCoveringAllowRule(
	index: ActionRuleIndex,
	action: ClassifiedAction,
	part: ActionPart,
	cwd: string,
	readsRunUnasked = false,
): PolicyRule | null {
	return (
		specificAllowRule(index, part, cwd, readsRunUnasked) ?? earliestWildcardRule(index.tool, action.tool)
	);
}

function specificAllowRule(
	index: ActionRuleIndex,
	part: ActionPart,
	cwd: string,
	readsRunUnasked: boolean,
): PolicyRule | null {
	if (part.command) {
		const byCommand: PolicyRule | null = earliestWildcardRule<PolicyRule>(index.command, part.command.text);
		if (byCommand !== null || part.knownEffects !== true) return byCommand;
		const touches = readsRunUnasked ? part.paths.filter((touch) => touch.access === "write") : part.paths;
		return pathsAllowRule(index, touches, cwd);
	}
	return pathsAllowRule(index, part.paths, cwd);
}

function pathsAllowRule(index: ActionRuleIndex, paths: readonly PathTouch[], cwd: string): PolicyRule | null {
	let first: PathRule | null = null;
	for (const touch of paths) {
		const lookup: PathLookup = { accept: (rule) => surfaceApplies(rule.surface, touch), scopeOf: allowScope };
		for (const form of touchForms(touch)) {
			const rule = earliestPathRule<PathRule>(index.path, form, cwd, lookup, null);
			if (rule === null) return null;
			first ??= rule;
		}
	}
	return first;
}

const matchAnywhere = (): PathMatchScope => "outside";

/** An allow reaches outside the cwd only through an `outside-cwd` rule or an absolute pattern. */
export function allowScope(rule: { readonly surface: PathSurface }): PathMatchScope {
	return rule.surface === "outside-cwd" ? "outside" : "inside";
}
