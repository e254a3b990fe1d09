/**
 * Per-tier modes: built-in defaults tightened by `tiers` overrides. An override can only tighten, and it applies
 * to its tier and every tier above it — otherwise raising an action's tier (a `commandTiers` entry, say) could
 * move it from a denied tier to an asking one, and a project file could loosen by classifying.
 */

import { defaultModeForTier, type Mode, modeRank, TIERS, type Tier, tierRank } from "../vocabulary/tier.ts";
import type { PolicyWarning, TierSetting } from "./effective-policy.ts";
import { builtInOrigin, type RuleOrigin } from "./policy-rule.ts";

export interface TierOverride {
	readonly tier: Tier;
	readonly mode: Mode;
	readonly origin: RuleOrigin;
}

/** `overrides` in precedence order (user file, then project file; tiers low to high within a file). */
export function resolveTierModes(overrides: readonly TierOverride[]): {
	tiers: Record<Tier, TierSetting>;
	warnings: PolicyWarning[];
} {
	const warnings: PolicyWarning[] = [];
	const accepted: TierOverride[] = [];
	for (const override of overrides) {
		const fallback = defaultModeForTier(override.tier);
		if (modeRank(override.mode) < modeRank(fallback)) {
			warnings.push(
				warn(
					override.origin,
					`ignored: "${override.mode}" would loosen the ${override.tier} tier past its default "${fallback}"; tiers can only be tightened`,
				),
			);
		} else accepted.push(override);
	}
	const tiers = settings((tier) => {
		let best: { mode: Mode; origin: RuleOrigin } = {
			mode: defaultModeForTier(tier),
			origin: builtInOrigin(`tiers.${tier}`),
		};
		for (const override of accepted) {
			if (tierRank(override.tier) <= tierRank(tier) && modeRank(override.mode) > modeRank(best.mode))
				best = override;
		}
		return best;
	});
	for (const override of accepted) {
		const effective = tiers[override.tier];
		if (modeRank(effective.mode) > modeRank(override.mode)) {
			const by = effective.ref.origin;
			warnings.push(
				warn(
					override.origin,
					`no effect: ${by.jsonPath} in ${by.file} already makes the ${override.tier} tier "${effective.mode}" (a tier setting covers every higher tier)`,
				),
			);
		}
	}
	return { tiers, warnings };
}

function settings(pick: (tier: Tier) => { mode: Mode; origin: RuleOrigin }): Record<Tier, TierSetting> {
	const out = {} as Record<Tier, TierSetting>;
	for (const tier of TIERS) {
		const { mode, origin } = pick(tier);
		out[tier] = { mode, ref: { surface: "tier", pattern: tier, action: mode, reason: null, origin } };
	}
	return out;
}

function warn(origin: RuleOrigin, message: string): PolicyWarning {
	return { file: origin.file, jsonPath: origin.jsonPath, line: origin.line, message };
}
