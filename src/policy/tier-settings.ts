/**
 * The operator's tier settings. `tiers` tighten the built-in mode of a tier: an override can only tighten, and it
 * applies to its tier and every tier above it — otherwise raising an action's tier (a `commandTiers` entry, say)
 * could move it from a denied tier to an asking one, and a project file could loosen by classifying.
 * `commandTiers` raise a command's tier, and `toolTiers` name a tier for a tool that is not built in (a project
 * file's only raise): the classifier applies them, and the decision re-applies those that can only raise to the
 * parts it decides.
 */
import type { ActionPart, ClassifiedAction, CommandUnit } from "../classify/action.ts";
import {
	type DecisionMode,
	defaultModeForTier,
	maxTier,
	modeRank,
	TIERS,
	type Tier,
	tierRank,
} from "../vocabulary/tier.ts";
import type { EffectivePolicy, PolicyWarning, TierAssignment, TierSetting } from "./effective-policy.ts";
import { builtInLocation, type ConfigLocation, strictCommandTexts } from "./policy-rule.ts";

export interface TierOverride {
	readonly tier: Tier;
	readonly mode: DecisionMode;
	readonly origin: ConfigLocation;
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
		let best: { mode: DecisionMode; origin: ConfigLocation } = {
			mode: defaultModeForTier(tier),
			origin: builtInLocation(`tiers.${tier}`),
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

function settings(
	pick: (tier: Tier) => { mode: DecisionMode; origin: ConfigLocation },
): Record<Tier, TierSetting> {
	const out = {} as Record<Tier, TierSetting>;
	for (const tier of TIERS) {
		const { mode, origin } = pick(tier);
		out[tier] = { mode, ref: { surface: "tier", pattern: tier, action: mode, reason: null, origin } };
	}
	return out;
}

function warn(origin: ConfigLocation, message: string): PolicyWarning {
	return { file: origin.file, jsonPath: origin.jsonPath, line: origin.line, message };
}

/** The highest `commandTiers` entry matching the command, or null. */
export function commandTierFloor(policy: EffectivePolicy, unit: CommandUnit): TierAssignment | null {
	const texts = strictCommandTexts(unit);
	let best: TierAssignment | null = null;
	for (const entry of policy.commandTiers) {
		if (best !== null && tierRank(entry.tier) <= tierRank(best.tier)) continue;
		if (texts.some((text) => entry.matcher.test(text))) best = { tier: entry.tier, origin: entry.origin };
	}
	return best;
}

/** One part as the decision sees it: its position, and its tier after every raise-only assignment. */
export interface DecidedPart {
	readonly index: number;
	readonly part: ActionPart;
	readonly tier: Tier;
}

/** The parts to decide (see `partsToDecide`) with raise-only floors applied; idempotent if the classifier applied them. */
export function decidedParts(action: ClassifiedAction, policy: EffectivePolicy): DecidedPart[] {
	const toolFloor = policy.toolTierFloors.get(action.tool)?.tier;
	return partsToDecide(action).map((part, index) => {
		let tier = part.tier;
		if (toolFloor !== undefined) tier = maxTier(tier, toolFloor);
		const commandFloor = part.command ? commandTierFloor(policy, part.command) : null;
		if (commandFloor) tier = maxTier(tier, commandFloor.tier);
		return { index, part, tier };
	});
}

/**
 * The parts a decision must account for. When the parts do not carry the action's tier (no parts at all, say),
 * the action as a whole is one more part at that tier — only a `tool` rule or grant can cover it — so nothing
 * escapes evaluation.
 */
export function partsToDecide(action: ClassifiedAction): readonly ActionPart[] {
	const highest = action.parts.reduce<Tier | null>(
		(top, p) => (top === null ? p.tier : maxTier(top, p.tier)),
		null,
	);
	if (highest !== null && tierRank(highest) >= tierRank(action.tier)) return action.parts;
	return [...action.parts, { tier: action.tier, tierReason: "the action as a whole", paths: [] }];
}
