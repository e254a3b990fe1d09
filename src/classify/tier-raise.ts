import { type Tier, tierRank } from "../vocabulary/tier.ts";

/**
 * A tier something lifts a part to, and why, in words for dialogs and logs: the tier table, an option, a
 * wrapper's floor or its own tier, an environment variable, a path written, a step of the read proof. A part's
 * tier is the strictest of its raises.
 */
export interface TierRaise {
	readonly tier: Tier;
	readonly reason: string;
}

/** The strictest raise; among equals, the first (table and wrapper reasons come before derived ones). */
export function strictest(raises: readonly TierRaise[]): TierRaise {
	let best: TierRaise = { tier: "read", reason: "changes nothing" };
	let first = true;
	for (const raise of raises) {
		if (first || tierRank(raise.tier) > tierRank(best.tier)) best = raise;
		first = false;
	}
	return best;
}
