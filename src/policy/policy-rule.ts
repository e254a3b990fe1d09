/** Rules as the decision sees them: compiled once at load time, each carrying where it was written. */

import type { Mode, Tier } from "../vocabulary/tier.ts";
import type { WildcardMatcher } from "../vocabulary/wildcard-pattern.ts";
import type { RuleAction, RuleSurface } from "./config-schema.ts";
import type { PathMatcher } from "./path-pattern.ts";

export const BUILT_IN = "built-in";

/** Where a rule came from: a config file and a JSON path in it, or `built-in` (line 0) for the defaults. */
export interface RuleOrigin {
	readonly file: string;
	readonly jsonPath: string;
	readonly line: number;
}

export function builtInOrigin(jsonPath = ""): RuleOrigin {
	return { file: BUILT_IN, jsonPath, line: 0 };
}

export type PathSurface = Exclude<RuleSurface, "tool" | "command">;

/** A rule's provenance: enough for a dialog, a log line or the model to name it. */
export interface RuleRef {
	readonly surface: RuleSurface;
	readonly pattern: string;
	readonly action: RuleAction;
	readonly reason: string | null;
	readonly origin: RuleOrigin;
}

/** The rule-like reference behind a tier's mode: a built-in default or a `tiers` override. */
export interface TierRef {
	readonly surface: "tier";
	readonly pattern: Tier;
	readonly action: Mode;
	readonly reason: null;
	readonly origin: RuleOrigin;
}

interface CompiledRuleBase {
	readonly ref: RuleRef;
	/** Position over all rules in force (user file first): ties between matching rules go to the lowest. */
	readonly seq: number;
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
