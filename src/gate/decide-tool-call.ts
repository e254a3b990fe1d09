import type { ChainStep } from "../audit/audit-entry.ts";
import { suggestGrants } from "../authority/suggest-grant.ts";
import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import { type AskDecision, decide } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { describeAskWhy, sourceOfBasis } from "./basis-source.ts";
import { askDenyReason, describeCall, parkedReason, policyDenyReason } from "./block-reason.ts";
import { askUngatedDelegation } from "./delegation-ask.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { GateOutcome } from "./gate-outcome.ts";
import { runChainFor } from "./run-chain-for.ts";

/**
 * The decision (adr/0002) for one model-issued call: classify, policy, authorizer chain, terminal authorizer. A call that
 * delegates to subagents which would run without the gate asks in any case (adr/0011).
 */
export async function decideToolCall(
	call: ToolCall,
	deps: GateDeps,
	policy: EffectivePolicy,
	signal?: AbortSignal,
): Promise<GateOutcome> {
	const action = deps.classify(call, policy);
	const what = describeCall(action, call.tool);
	const approval = deps.parked.find(action.hash);
	const decision = decide(action, policy, {
		origin: deps.origin,
		grants: deps.grants.list(),
		parkedApproval: approval,
	});
	if (decision.mode === "deny") {
		return deny("deny", sourceOfBasis(decision.basis), action, policyDenyReason(what, decision), []);
	}
	// Children that would run ungated: whatever else would allow this call, a human must accept that first.
	const delegation = deps.delegation(call);
	if (delegation && !delegation.verdict.gated) {
		return askUngatedDelegation(action, delegation.verdict, policy, deps, what, signal);
	}
	if (decision.mode === "auto") {
		if (decision.basis.kind === "parked_approval" && approval) {
			if (!deps.parked.consume(approval)) {
				return decideToolCall(call, deps, policy, signal);
			}
			const source = {
				kind: "parked_approval",
				requestId: approval.requestId,
				approvedVia: approval.approvedVia,
			} as const;
			return {
				outcome: "allow",
				mode: "auto",
				source,
				action,
				reason: `approved request ${approval.requestId}`,
				chain: [],
			};
		}
		return {
			outcome: "allow",
			mode: "auto",
			source: sourceOfBasis(decision.basis),
			action,
			reason: "allowed by policy",
			chain: [],
		};
	}
	const why = describeAskWhy(decision);
	return { ...(await resolveAsk(action, decision, why, policy, deps, what, signal)), why };
}

async function resolveAsk(
	action: ClassifiedAction,
	decision: AskDecision,
	why: string,
	policy: EffectivePolicy,
	deps: GateDeps,
	what: string,
	signal: AbortSignal | undefined,
): Promise<GateOutcome> {
	// A guarded path is for a human alone: no authorizer link is asked (adr/0014).
	const chain = decision.humanOnly
		? { decided: null, steps: [] }
		: await runChainFor(action, { origin: deps.origin, why, forwarded: false }, policy, deps);
	if (chain.decided) {
		const { verdict, link, source } = chain.decided;
		if (verdict === "allow") {
			return {
				outcome: "allow",
				mode: "ask",
				source,
				action,
				reason: `allowed by authorizer ${link}`,
				chain: chain.steps,
			};
		}
		return deny("ask", source, action, askDenyReason(what, action.tier, source), chain.steps);
	}
	const askingParts = decision.askingParts.map((p) => ({ part: p.part, tier: p.tier }));
	const suggestions = decision.grantable ? suggestGrants(action.tool, askingParts) : [];
	const terminal = deps.terminal();
	const result = await terminal.decide({
		action,
		origin: deps.origin,
		sessionId: deps.sessionId,
		why,
		askingParts,
		suggestions,
		unanswered: policy.unanswered ?? deps.defaultUnanswered,
		timeoutMs: policy.dialogTimeoutSeconds * 1000,
		deferExpiryMs: policy.deferExpiryHours * 3600_000,
		...(signal ? { signal } : {}),
	});
	switch (result.outcome) {
		case "allow":
			deps.grants.add(result.grants);
			return {
				outcome: "allow",
				mode: "ask",
				source: result.source,
				action,
				reason: "allowed at the terminal authorizer",
				chain: chain.steps,
			};
		case "deny":
			return deny(
				"ask",
				result.source,
				action,
				askDenyReason(what, action.tier, result.source, result.userReason),
				chain.steps,
			);
		case "parked":
			return {
				outcome: "pending",
				mode: "ask",
				source: result.source,
				action,
				reason: parkedReason(what, result.requestId),
				chain: chain.steps,
				requestId: result.requestId,
			};
	}
}

function deny(
	mode: "ask" | "deny",
	source: GateOutcome["source"],
	action: ClassifiedAction,
	reason: string,
	chain: readonly ChainStep[],
): GateOutcome {
	return { outcome: "deny", mode, source, action, reason, chain };
}
