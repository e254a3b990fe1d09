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

export const MODES = ["auto", "ask", "deny"] as const;
export type Mode = (typeof MODES)[number];

export function modeRank(mode: Mode): number {
	return MODES.indexOf(mode);
}

/** Read runs unattended; everything that changes something asks. */
export function defaultModeForTier(tier: Tier): Mode {
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
