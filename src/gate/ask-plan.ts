/**
 * What the pipeline's policy step (adr/0002, step 2) hands on, whichever kind of ask it judged: a settled
 * outcome, or the question the links and the terminal will be asked. Each kind's step lives next to what it
 * judges (`own-call.ts`, with the ask an ungated delegation becomes; `typed-command.ts`;
 * `forwarded-request.ts`); what they share is here.
 */
import type { ChainStep } from "../audit/audit-entry.ts";
import type { AskCommon, ForwardedOnly, TerminalDecision } from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction } from "../classify/action.ts";
import type { PlannedChange } from "../launchers/settings-change.ts";
import type { Origin } from "../origin/origin.ts";
import type { DenyDecision } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import { withinCeiling } from "../vocabulary/tier.ts";
import { sourceOfBasis } from "./basis-source.ts";
import { policyDenyReason } from "./block-reason.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { GateOutcome } from "./gate-outcome.ts";

/** The kind of ask as the policy and terminal steps see it: an ungated delegation is a tool call of its own kind. */
type AskKind = "tool_call" | "user_bash" | "forwarded" | "delegation";

/** What every kind's policy step reads. */
export interface PolicyContext {
	readonly action: ClassifiedAction;
	readonly origin: Origin;
	/** The call in words, for the reasons the model reads ("this bash call (rm -rf build)"). */
	readonly what: string;
	readonly deps: GateDeps;
	/** The policy read once for this ask. */
	readonly policy: EffectivePolicy;
	/** How long a dialog waits, from the policy. */
	readonly timeoutMs: number;
	/** The unanswered policy this session applies (its config's, else its default). */
	readonly unanswered: AskCommon["unanswered"];
}

/**
 * What the policy step hands on when it neither denies nor allows: the question the terminal will be asked
 * (always in mode `ask`), and how the links and the outcome treat it.
 */
export interface AskPlan
	extends Pick<AskCommon, "why" | "askingParts" | "suggestions" | "unanswered" | "timeoutMs" | "signal"> {
	readonly kind: AskKind;
	/** A guarded path or an ungated delegation: only a human answers, no authorizer link is asked. */
	readonly humanOnly: boolean;
	/** An ask rule (or a guard) forced the ask: no permission mode answers it instead of a human. */
	readonly askRule: boolean;
	/**
	 * For a forwarded ask: when the child stops waiting (epoch ms). The dialog's wait is cut to it when the
	 * terminal is asked — after the links, which may have used some of the time.
	 */
	readonly deadline?: number;
	/** Steps recorded before the links (the delegation guard's). */
	readonly chain: readonly ChainStep[];
	/** For a forwarded ask: what only such an ask carries to the terminal. */
	readonly forwarded?: ForwardedOnly;
	/**
	 * For a delegation a settings change can gate: that change, offered as "Add the gate to <file> and continue"
	 * and written as it was planned, only over the text it was worked out from.
	 */
	readonly settingsFix?: PlannedChange;
	/** For a delegation: the launcher's verdict, for the reason the model reads. */
	readonly blockReason?: (source: DecisionSource, userReason?: string) => string;
}

export type PolicyStep =
	| { readonly settled: Omit<GateOutcome, "action" | "chain"> }
	| { readonly plan: AskPlan }
	/** A parked approval was used up by another call between finding and consuming it: decide again. */
	| { readonly again: true };

/** A deny rule (or an agent rule, a config error, a refused path) settles the ask, for every kind. */
export function deniedBy(what: string, denied: DenyDecision): PolicyStep {
	const reason = policyDenyReason(what, denied);
	return { settled: { outcome: "deny", mode: "deny", source: sourceOfBasis(denied.basis), reason } };
}

/**
 * Which of the suggested patterns a human may save as rules (adr/0018): none for a guarded path, a privileged
 * part or an ask only a human may answer; an allow only when every asking part is within the grant ceiling
 * (above it, an allow rule would not apply anyway).
 */
export function savableRules(plan: AskPlan, policy: EffectivePolicy): AskCommon["savable"] {
	const parts = plan.askingParts;
	if (
		!policy.allowSavedRules ||
		plan.suggestions.length === 0 ||
		plan.humanOnly ||
		parts.some(({ part, tier }) => tier === "privileged" || part.guard !== undefined)
	) {
		return { allow: false, deny: false };
	}
	return { allow: parts.every(({ tier }) => withinCeiling(tier, policy.grantCeiling.tier)), deny: true };
}

/**
 * Grants a human gave with an answer stay in this session — except those for the child that asked, which go back
 * to it with the answer; a delegation offers none.
 */
export function keepsGrants(
	kind: AskKind,
	terminal: Extract<TerminalDecision, { outcome: "allow" }>,
): boolean {
	if (kind === "delegation" || terminal.grants.length === 0) return false;
	return !(kind === "forwarded" && terminal.scope === "subagent");
}
