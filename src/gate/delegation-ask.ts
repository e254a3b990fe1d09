import type { ChainStep } from "../audit/audit-entry.ts";
import type { ClassifiedAction } from "../classify/action.ts";
import type { ChildGateVerdict } from "../launchers/child-gate.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { capSourceText } from "../provenance/decision-source.ts";
import {
	DELEGATION_GUARD_STEP,
	ungatedDelegationBlockReason,
	ungatedDelegationWhy,
} from "./delegation-reason.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { GateOutcome } from "./gate-outcome.ts";

type Ungated = Extract<ChildGateVerdict, { gated: false }>;

/**
 * A delegation whose children would run without the gate: only a human may accept that, so it asks even when
 * a rule, grant or approval would allow the call, skips the authorizer links (they judge actions, not this
 * configuration), offers no grant, and waits for an answer — never parks it: nobody approving it later fixes
 * the configuration. With nobody to ask, the terminal refuses it.
 */
export async function askUngatedDelegation(
	action: ClassifiedAction,
	verdict: Ungated,
	policy: EffectivePolicy,
	deps: GateDeps,
	what: string,
	signal: AbortSignal | undefined,
): Promise<GateOutcome> {
	const why = ungatedDelegationWhy(verdict);
	// The audit keeps why the call asked, whatever the answer: the guard's step in the chain.
	const chain: ChainStep[] = [
		{ link: DELEGATION_GUARD_STEP, result: "defer", reason: capSourceText(verdict.why), ms: 0 },
	];
	const result = await deps.terminal().decide({
		action,
		origin: deps.origin,
		sessionId: deps.sessionId,
		why,
		askingParts: action.parts.map((part) => ({ part, tier: part.tier })),
		suggestions: [],
		// Never parked; refused at once only when the operator wants every ask refused that way.
		unanswered: policy.unanswered === "deny" ? "deny" : "wait",
		timeoutMs: policy.dialogTimeoutSeconds * 1000,
		deferExpiryMs: policy.deferExpiryHours * 3600_000,
		...(signal ? { signal } : {}),
	});
	switch (result.outcome) {
		case "allow":
			return {
				outcome: "allow",
				mode: "ask",
				source: result.source,
				action,
				reason: "allowed at the terminal authorizer, though the subagent runs without permission checks",
				chain,
				why,
			};
		case "deny":
		case "parked":
			// `parked` cannot come from a `wait` ask; were it to, the call is refused like any unanswered one.
			return {
				outcome: "deny",
				mode: "ask",
				source: result.source,
				action,
				reason: ungatedDelegationBlockReason(
					what,
					action.tier,
					verdict,
					result.source,
					result.outcome === "deny" ? result.userReason : undefined,
				),
				chain,
				why,
			};
	}
}
