/**
 * Operator tier assignments the classifier applies (and the decision re-applies where they can only raise):
 * `commandTiers` raise a command's tier, `toolTiers` name a tier for a tool that is not built in, and a
 * project file's `toolTiers` only raise.
 */
import type { ActionPart, ClassifiedAction, CommandUnit } from "../classify/action.ts";
import { maxTier, type Tier, tierRank } from "../vocabulary/tier.ts";
import { partsToDecide } from "./action-parts.ts";
import { strictCommandTexts } from "./command-texts.ts";
import type { EffectivePolicy, TierAssignment } from "./effective-policy.ts";
import type { RuleOrigin } from "./policy-rule.ts";

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

/**
 * A tool's tier: the user file's `toolTiers` entry replaces what the classifier would give a non-built-in tool
 * (built-in tools are classified by code only), then the project file's entry can raise it. `origin` is null
 * when no config entry decided.
 */
export function resolveToolTier(
	policy: EffectivePolicy,
	tool: string,
	classified: Tier,
	builtIn: boolean,
): { readonly tier: Tier; readonly origin: RuleOrigin | null } {
	const assigned = builtIn ? undefined : policy.toolTiers.get(tool);
	let result: { tier: Tier; origin: RuleOrigin | null } = assigned ?? { tier: classified, origin: null };
	const floor = policy.toolTierFloors.get(tool);
	if (floor && tierRank(floor.tier) > tierRank(result.tier)) result = floor;
	return result;
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
