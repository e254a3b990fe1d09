/**
 * Risk tiers and gate modes: the vocabulary every layer shares.
 * A tier is resolved by code from the action (most restrictive over all parts) and never taken from the model.
 */

export const TIERS = ["read", "write", "network-egress", "spend", "destructive", "privileged"] as const;
export type Tier = (typeof TIERS)[number];

export const HIGHEST_TIER: Tier = "privileged";

export function tierRank(tier: Tier): number {
	return TIERS.indexOf(tier);
}

export function maxTier(a: Tier, b: Tier): Tier {
	return tierRank(a) >= tierRank(b) ? a : b;
}

export function isTier(value: unknown): value is Tier {
	return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** What a tier setting, a rule or a decision does with a call: run it, ask a human, refuse it (not a PermissionMode). */
export const DECISION_MODES = ["auto", "ask", "deny"] as const;
export type DecisionMode = (typeof DECISION_MODES)[number];

export function modeRank(mode: DecisionMode): number {
	return DECISION_MODES.indexOf(mode);
}

/** Read runs unattended; everything that changes something asks. */
export function defaultModeForTier(tier: Tier): DecisionMode {
	return tier === "read" ? "auto" : "ask";
}

/**
 * Standing grants (allow lines in config) may cover at most this tier unless the user-level config raises it
 * with a written reason. Egress, spend, destruction and privilege are what a human cannot undo by noticing later.
 */
export const DEFAULT_GRANT_CEILING: Tier = "write";

export function withinCeiling(tier: Tier, ceiling: Tier): boolean {
	return tierRank(tier) <= tierRank(ceiling);
}
