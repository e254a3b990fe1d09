import { DEFAULT_GRANT_CEILING, TIERS, type Tier } from "../vocabulary/tier.ts";
import type { ConfigFileError } from "./config-error.ts";
import {
	DEFAULT_DEFER_EXPIRY_HOURS,
	DEFAULT_DIALOG_TIMEOUT_SECONDS,
	type EffectivePolicy,
	type PatternContext,
	type PolicySource,
	type PolicyWarning,
	type TierSetting,
} from "./effective-policy.ts";
import { builtInOrigin } from "./policy-rule.ts";
import { buildRuleIndex } from "./rule-index.ts";

/**
 * The policy while a config file in force is broken: every tier denies, nothing is granted. Stricter than any
 * valid configuration, so a typo can never open the gate wider than the operator meant.
 */
export function failClosedPolicy(
	context: PatternContext,
	sources: readonly PolicySource[],
	errors: readonly [ConfigFileError, ...ConfigFileError[]],
	warnings: readonly PolicyWarning[],
): EffectivePolicy {
	const [first] = errors;
	const origin = { file: first.file, jsonPath: first.jsonPath, line: first.line ?? 0 };
	const tiers = {} as Record<Tier, TierSetting>;
	for (const tier of TIERS) {
		tiers[tier] = {
			mode: "deny",
			ref: { surface: "tier", pattern: tier, action: "deny", reason: null, origin },
		};
	}
	return {
		context,
		sources,
		configErrors: errors,
		warnings,
		rules: [],
		index: buildRuleIndex([]),
		tiers,
		commandTiers: [],
		toolTiers: new Map(),
		toolTierFloors: new Map(),
		agentRules: { allow: [], deny: [] },
		authorizerChain: [],
		unanswered: "deny",
		dialogTimeoutSeconds: DEFAULT_DIALOG_TIMEOUT_SECONDS,
		deferExpiryHours: DEFAULT_DEFER_EXPIRY_HOURS,
		grantCeiling: { tier: DEFAULT_GRANT_CEILING, reason: null, origin: builtInOrigin("grantCeiling") },
	};
}
