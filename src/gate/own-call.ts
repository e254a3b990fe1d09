/**
 * The policy step (adr/0002, step 2) for this session's own tool call: the whole policy decides it — deny rules,
 * allow rules within the grant ceiling, session grants, tier modes, a parked approval for this exact action
 * (adr/0004) — except that a call delegating to children that would run ungated is for a human alone
 * (adr/0011), and so is one that would run unsandboxed against the policy's wish (adr/0017) or with a file tool
 * other than the gate's (adr/0014).
 */
import { suggestGrants } from "../authority/suggest-grant.ts";
import type { ToolCall } from "../classify/action.ts";
import { decide } from "../policy/decide.ts";
import { capSourceText, humanDecided } from "../provenance/decision-source.ts";
import { type AskPlan, deniedBy, type PolicyContext, type PolicyStep } from "./ask-plan.ts";
import { describeAskWhy, sourceOfBasis } from "./basis-source.ts";
import { DELEGATION_GUARD_STEP, ungatedDelegationBlockReason, ungatedDelegationWhy } from "./block-reason.ts";
import type { Delegation } from "./delegation-guard.ts";

/** What the gate knows of this call beyond its classification. */
interface OwnCall {
	readonly call: ToolCall;
	readonly signal?: AbortSignal;
	/** Why a bash call would run unsandboxed against the policy's wish, or null (adr/0017). */
	readonly unsandboxed: string | null;
	/** Why the file tool pi would run is not the gate's contained one, or null (adr/0014). */
	readonly uncontainedTool: string | null;
}

export function ownCallStep(own: OwnCall, context: PolicyContext): PolicyStep {
	const { action, origin, what, deps, policy, timeoutMs, unanswered } = context;
	const { unsandboxed, uncontainedTool, signal } = own;
	const uncontained = unsandboxed ?? uncontainedTool;
	const approval = deps.parked.find(action.hash);
	const decision = decide(action, policy, {
		origin,
		grants: deps.grants.list(),
		parkedApproval: approval,
	});
	if (decision.mode === "deny") return deniedBy(what, decision);
	// Children that would run ungated: whatever else would allow this call, a human must accept that first.
	const delegation = deps.delegation(own.call);
	if (delegation && !delegation.verdict.gated) {
		return { plan: ungatedDelegationPlan(delegation.verdict, delegation.uncontained, own, context) };
	}
	// Only a human's approval of this very action may run it unsandboxed, parked or not (adr/0017).
	const humanApproved = decision.basis.kind === "parked_approval" && humanDecided(decision.basis.approvedBy);
	if (decision.mode === "auto" && uncontained !== null && !humanApproved) {
		const askingParts = action.parts.map((part) => ({ part, tier: part.tier }));
		return {
			plan: {
				kind: "tool_call",
				why: capSourceText(uncontained),
				humanOnly: true,
				askRule: false,
				chain: [],
				askingParts,
				suggestions: [],
				unanswered,
				timeoutMs,
				...(signal ? { signal } : {}),
			},
		};
	}
	if (decision.mode === "auto") {
		if (decision.basis.kind === "parked_approval" && approval) {
			if (!deps.parked.consume(approval)) return { again: true };
			const { requestId, approvedBy } = approval;
			const source = { kind: "parked_approval", requestId, approvedBy } as const;
			return {
				settled: { outcome: "allow", mode: "auto", source, reason: `approved request ${requestId}` },
			};
		}
		const source = sourceOfBasis(decision.basis);
		return { settled: { outcome: "allow", mode: "auto", source, reason: "allowed by policy" } };
	}
	const askingParts = decision.askingParts.map((p) => ({ part: p.part, tier: p.tier }));
	return {
		plan: {
			kind: "tool_call",
			why: capSourceText(
				uncontainedTool === null
					? describeAskWhy(decision)
					: `${describeAskWhy(decision)}; ${uncontainedTool}`,
			),
			// A guarded path is for a human alone: no authorizer link is asked (adr/0014). Nor when a link's
			// allow would run the command unsandboxed against the policy's wish, or uncontained; and no grant
			// is offered that would only make the next such call ask again.
			humanOnly: decision.humanOnly || uncontained !== null,
			askRule: !decision.grantable,
			chain: [],
			askingParts,
			suggestions:
				decision.grantable && uncontainedTool === null ? suggestGrants(action.tool, askingParts) : [],
			unanswered,
			timeoutMs,
			...(signal ? { signal } : {}),
		},
	};
}

/**
 * The ask a call becomes whose children would run ungated (adr/0011): for a human only, whatever a rule, grant
 * or link says; never parked; offering the settings fix when one can gate them.
 */
function ungatedDelegationPlan(
	verdict: Extract<Delegation["verdict"], { readonly gated: false }>,
	/** What the children load beyond the gate and where they run, in words; null when contained. */
	uncontained: string | null,
	own: OwnCall,
	context: PolicyContext,
): AskPlan {
	const { action, what, policy, timeoutMs } = context;
	return {
		kind: "delegation",
		why: ungatedDelegationWhy(verdict, uncontained),
		humanOnly: true,
		askRule: false,
		// The audit keeps why the call asked, whatever the answer: the guard's step in the chain.
		chain: [{ link: DELEGATION_GUARD_STEP, result: "defer", reason: capSourceText(verdict.why), ms: 0 }],
		askingParts: action.parts.map((part) => ({ part, tier: part.tier })),
		suggestions: [],
		// Never parked; refused at once only when the operator wants every ask refused that way.
		unanswered: policy.unanswered === "deny" ? "deny" : "wait",
		timeoutMs,
		...(own.signal ? { signal: own.signal } : {}),
		blockReason: (source, userReason) =>
			ungatedDelegationBlockReason(what, action.tier, verdict, source, userReason),
		...(verdict.fix.automatic ? { settingsFix: verdict.fix.automatic } : {}),
	};
}
