/**
 * The session's permission mode applied to what the policy step decided (adr/0023). A mode only ever moves a
 * decision the policy left to a human (`accept-edits`, `trusted`, `dont-ask`), or refuses more (`plan`): a deny
 * rule, an ask rule, a guarded path, an ask only a human may answer and a `privileged` part are never moved, and
 * no mode writes outside the working directory unasked (adr/0014).
 * Commands the human typed (`!`) are theirs: no mode applies to them.
 */
import type { ClassifiedAction } from "../classify/action.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { type Tier, tierRank } from "../vocabulary/tier.ts";

/** What the policy step handed on, as far as a mode looks at it. */
export type PolicyVerdict =
	| { readonly kind: "settled"; readonly outcome: "allow" | "deny" | "pending" }
	| {
			readonly kind: "ask";
			/** Only a human may answer it (a guarded path, an ungated delegation, a required sandbox missing). */
			readonly humanOnly: boolean;
			/** An ask rule forced it: the operator wants a human asked, whatever the mode. */
			readonly askRule: boolean;
			readonly askingTiers: readonly Tier[];
			/** Whether an asking part touches a path outside the working directory. */
			readonly leavesCwd: boolean;
			/** Whether an asking part writes a path outside the working directory. */
			readonly writesOutsideCwd: boolean;
	  };

interface ModeDecision {
	readonly source: DecisionSource;
	readonly reason: string;
}

export type ModeEffect =
	| { readonly kind: "none" }
	| (ModeDecision & { readonly kind: "allow" })
	| (ModeDecision & { readonly kind: "deny" });

const NONE: ModeEffect = { kind: "none" };

/** The highest tier `trusted` allows without asking. */
const TRUSTED_UP_TO = tierRank("destructive");

/** What `mode` makes of the policy step's verdict on `action` (`what` names the call for the model). */
export function permissionModeEffect(
	mode: PermissionMode,
	action: ClassifiedAction,
	verdict: PolicyVerdict,
	what: string,
): ModeEffect {
	const source: DecisionSource = { kind: "mode", mode };
	if (mode === "plan") {
		if (verdict.kind === "settled" && verdict.outcome === "deny") return NONE;
		if (tierRank(action.tier) <= tierRank("read")) return NONE;
		return {
			kind: "deny",
			source,
			reason: `Blocked by pi-permission-hub: ${what} is ${action.tier}, and this session is in plan mode, where only reads run. Do not retry it: investigate with reads and describe the change you would make instead.`,
		};
	}
	if (verdict.kind !== "ask" || verdict.humanOnly || verdict.askRule) return NONE;
	if (action.parts.some((part) => part.guard !== undefined)) return NONE;
	if (
		mode === "accept-edits" &&
		!verdict.leavesCwd &&
		verdict.askingTiers.every((tier) => tier === "write")
	) {
		return { kind: "allow", source, reason: "allowed by the accept-edits permission mode" };
	}
	// Outside the project no mode writes unasked: what runs there later (`~/.npmrc`, a `.pth` file, an autostart
	// entry) is not a list the gate could keep complete (adr/0014). A rule or grant for the path is a human's.
	if (
		mode === "trusted" &&
		!verdict.writesOutsideCwd &&
		verdict.askingTiers.every((tier) => tierRank(tier) <= TRUSTED_UP_TO)
	) {
		return { kind: "allow", source, reason: "allowed by the trusted permission mode" };
	}
	return NONE;
}

/** The refusal `dont-ask` gives where a human would have been asked. */
export function dontAskRefusal(what: string): Extract<ModeEffect, { readonly kind: "deny" }> {
	return {
		kind: "deny",
		source: { kind: "mode", mode: "dont-ask" },
		reason: `Blocked by pi-permission-hub: ${what} would need a human's approval, and this session's permission mode is dont-ask, so it was refused without asking. Do not retry it; find a way that needs no approval, or report what you needed.`,
	};
}
