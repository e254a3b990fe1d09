import type { ActionPart, ClassifiedAction } from "../classify/action.ts";
import { maxTier, type Tier, tierRank } from "../vocabulary/tier.ts";

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
