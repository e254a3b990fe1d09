/**
 * What a session grant is and what it covers. A grant is an "allow for this session" a human gave at a dialog
 * (the grants a session holds are kept by src/authority/session-grants.ts). Patterns use the same syntax as
 * rules; a grant covers a part the way an allow rule does (never more). Grants never outrank a deny — the
 * decision checks denies first.
 */
import type { ActionPart, ClassifiedAction } from "../classify/action.ts";
import { type Tier, tierRank } from "../vocabulary/tier.ts";
import { compileWildcard, type WildcardMatcher } from "../vocabulary/wildcard-pattern.ts";
import type { PatternContext } from "./effective-policy.ts";
import { compilePathPattern, type PathMatcher, pathFormMatches } from "./path-pattern.ts";
import { allowScope, surfaceApplies, touchForms } from "./policy-rule.ts";

export type GrantSurface = "tool" | "command" | "read" | "write" | "path";
export type GrantScope = "session" | "subagent" | "tree";

/**
 * What the human saw when they granted: the tier of the part, and whether it reached outside the cwd. A
 * pattern like `touch *` must not carry a grant given for `touch notes.txt` over to `touch /etc/passwd`
 * (privileged) or `touch ~/.bashrc` (outside the project).
 */
export interface GrantLimit {
	readonly tier: Tier;
	readonly outsideCwd: boolean;
}

export interface SessionGrant {
	readonly id: string;
	readonly surface: GrantSurface;
	readonly pattern: string;
	readonly scope: GrantScope;
	readonly limit: GrantLimit;
	/** ISO timestamp. */
	readonly grantedAt: string;
}

export type CompiledGrant =
	| {
			readonly grant: SessionGrant;
			readonly context: PatternContext;
			readonly kind: "wildcard";
			readonly matcher: WildcardMatcher;
	  }
	| {
			readonly grant: SessionGrant;
			readonly context: PatternContext;
			readonly kind: "path";
			readonly matcher: PathMatcher;
	  }
	/** A pattern picomatch refused: it covers nothing. */
	| { readonly grant: SessionGrant; readonly context: PatternContext; readonly kind: "void" };

export function compileGrant(grant: SessionGrant, context: PatternContext): CompiledGrant {
	if (grant.surface === "tool" || grant.surface === "command") {
		return { grant, context, kind: "wildcard", matcher: compileWildcard(grant.pattern) };
	}
	try {
		return { grant, context, kind: "path", matcher: compilePathPattern(grant.pattern, context.homeDir) };
	} catch {
		return { grant, context, kind: "void" };
	}
}

/**
 * A `tool` grant covers every part of its tool; a `command` grant a part whose command text it matches; a path
 * grant a part whose every path (every form, with the grant's access) it matches — a part without a command, or
 * a command whose only effects are its paths (`sed -i`, `mv`, `mkdir`), as a path allow rule does (adr/0018:
 * "for this session" and "always" cover the same calls); with `readsRunUnasked`, such a command's reads need no
 * covering. Never a part above the grant's tier, nor one leaving the cwd when the granted one did not (see
 * GrantLimit). `tier` is the part's tier after raise-only floors (defaults to the classifier's).
 */
export function grantCoversPart(
	compiled: CompiledGrant,
	action: ClassifiedAction,
	part: ActionPart,
	tier: Tier = part.tier,
	readsRunUnasked = false,
): boolean {
	const { grant } = compiled;
	if (compiled.kind === "void") return false;
	if (tierRank(tier) > tierRank(grant.limit.tier)) return false;
	if (!grant.limit.outsideCwd && part.paths.some((touch) => touch.outsideCwd)) return false;
	if (compiled.kind === "wildcard") {
		if (grant.surface === "tool") return compiled.matcher.test(action.tool);
		return part.command !== undefined && compiled.matcher.test(part.command.text);
	}
	if (grant.surface === "tool" || grant.surface === "command") return false;
	if (part.command !== undefined && part.knownEffects !== true) return false;
	const touches =
		part.command !== undefined && readsRunUnasked
			? part.paths.filter((touch) => touch.access === "write")
			: part.paths;
	if (touches.length === 0) return false;
	const surface = grant.surface;
	const { matcher, context } = compiled;
	return touches.every(
		(touch) =>
			surfaceApplies(surface, touch) &&
			touchForms(touch).every((form) => pathFormMatches(matcher, form, context.cwd, allowScope({ surface }))),
	);
}

const compiledGrants = new WeakMap<SessionGrant, CompiledGrant>();

/** Compiles once per grant object and context. */
export function compiledGrant(grant: SessionGrant, context: PatternContext): CompiledGrant {
	const cached = compiledGrants.get(grant);
	if (cached && cached.context.cwd === context.cwd && cached.context.homeDir === context.homeDir)
		return cached;
	const compiled = compileGrant(grant, context);
	compiledGrants.set(grant, compiled);
	return compiled;
}

/** The first grant (in the given order) covering the part, or null. */
export function findGrantForPart(
	grants: readonly SessionGrant[],
	context: PatternContext,
	action: ClassifiedAction,
	part: ActionPart,
	tier: Tier = part.tier,
	readsRunUnasked = false,
): SessionGrant | null {
	for (const grant of grants)
		if (grantCoversPart(compiledGrant(grant, context), action, part, tier, readsRunUnasked)) return grant;
	return null;
}
