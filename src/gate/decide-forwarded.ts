import type { SuggestedGrant } from "../authority/suggest-grant.ts";
import { suggestGrants } from "../authority/suggest-grant.ts";
import type { Ask, TerminalDecision, UnansweredPolicy } from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction } from "../classify/action.ts";
import { actionHash } from "../classify/action-hash.ts";
import { isBuiltInTool } from "../classify/builtin-tools.ts";
import type { ServedAsk, ServerAnswer } from "../hub/hub-server.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import { type Origin, resolveOrigin } from "../origin/origin.ts";
import { findCoveringGrant, findDeny } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import { capSourceText } from "../provenance/decision-source.ts";
import { maxTier, tierRank } from "../vocabulary/tier.ts";
import { sourceOfBasis } from "./basis-source.ts";
import { askDenyReason, describeCall, parkedReason, policyDenyReason } from "./block-reason.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { GateOutcome } from "./gate-outcome.ts";
import { runChainFor } from "./run-chain-for.ts";

export interface ForwardedDecision {
	readonly answer: ServerAnswer;
	/** The same decision as the parent's audit line sees it. */
	readonly outcome: GateOutcome;
	readonly origin: Origin;
}

/**
 * A parent deciding an ask one of its children forwarded (adr/0006). The child asked because its own,
 * possibly stricter, policy said so, so this session's allow rules and tier defaults do not approve it; only
 * its deny rules and agent-rule denies, its whole-tree grants, a parked approval for this exact action, its
 * authorizer chain, and then its terminal authorizer (its human, or its own parent when it is a relay).
 */
export async function decideForwarded(
	served: ServedAsk,
	deps: GateDeps,
	policy: EffectivePolicy,
	reoffered?: Ask["reoffered"],
): Promise<ForwardedDecision> {
	const { request, signal } = served;
	// A live child is a subagent whatever its request claims; a request parked in this user's own private
	// store keeps the origin the parking session recorded (its own run, or the child it forwarded for).
	const origin = reoffered && request.origin ? request.origin : originOfRequest(request);
	const judged = actionOfRequest(request, deps, policy);
	if ("mismatch" in judged) {
		const source: DecisionSource = { kind: "unavailable", reason: capSourceText(judged.mismatch) };
		const outcome: GateOutcome = {
			outcome: "deny",
			mode: "deny",
			source,
			action: null,
			reason: judged.mismatch,
			chain: [],
		};
		return { answer: deny(source, judged.mismatch), outcome, origin };
	}
	const { action } = judged;
	const what = describeCall(action, request.tool);
	const done = (answer: ServerAnswer, outcome: Omit<GateOutcome, "action">): ForwardedDecision => ({
		answer,
		outcome: { ...outcome, action, ...(outcome.mode === "ask" ? { why: request.why } : {}) },
		origin,
	});

	const denied = findDeny(action, policy, origin);
	if (denied) {
		const source = sourceOfBasis(denied.basis);
		const reason = policyDenyReason(what, denied);
		return done(deny(source, reason), { outcome: "deny", mode: "deny", source, reason, chain: [] });
	}
	const treeGrants = deps.grants.list().filter((g) => g.scope === "tree");
	const grant = findCoveringGrant(action, treeGrants, policy);
	if (grant) {
		const source: DecisionSource = {
			kind: "session_grant",
			grantId: grant.id,
			surface: grant.surface,
			pattern: grant.pattern,
			scope: grant.scope,
		};
		return done(allowOnce(source), {
			outcome: "allow",
			mode: "ask",
			source,
			reason: "whole-tree grant",
			chain: [],
		});
	}
	const approval = deps.parked.find(request.actionHash);
	if (approval && deps.parked.consume(approval)) {
		const source: DecisionSource = {
			kind: "parked_approval",
			requestId: approval.requestId,
			approvedVia: approval.approvedVia,
		};
		return done(allowOnce(source), {
			outcome: "allow",
			mode: "ask",
			source,
			reason: "parked approval",
			chain: [],
		});
	}

	// A guarded path is for a human alone: no authorizer link is asked (adr/0014).
	const humanOnly = action.parts.some((part) => part.guard?.kind === "human");
	const chain = humanOnly
		? { decided: null, steps: [] }
		: await runChainFor(action, { origin, why: request.why, forwarded: true }, policy, deps);
	if (chain.decided) {
		const { verdict, link, source } = chain.decided;
		if (verdict === "allow") {
			return done(allowOnce(source), {
				outcome: "allow",
				mode: "ask",
				source,
				reason: `allowed by ${link}`,
				chain: chain.steps,
			});
		}
		const text = askDenyReason(what, action.tier, source);
		return done(deny(source, text), {
			outcome: "deny",
			mode: "ask",
			source,
			reason: text,
			chain: chain.steps,
		});
	}

	// Patterns this session works out itself from the action: it never offers one the child supplied.
	const grantable = request.grantable && !humanOnly;
	const askingParts = action.parts
		.filter((part) => part.tier !== "read")
		.map((part) => ({ part, tier: part.tier }));
	const suggestions: SuggestedGrant[] = grantable ? suggestGrants(action.tool, askingParts) : [];
	const timeoutMs = Math.max(
		1,
		Math.min(policy.dialogTimeoutSeconds * 1000, Date.parse(request.expiresAt) - Date.now()),
	);
	const result = await deps.terminal().decide({
		action,
		origin,
		sessionId: deps.sessionId,
		why: request.why,
		askingParts,
		suggestions,
		unanswered: strictestUnanswered(request.unanswered, policy.unanswered ?? deps.defaultUnanswered),
		timeoutMs,
		deferExpiryMs: policy.deferExpiryHours * 3600_000,
		signal,
		relayed: request,
		...(reoffered ? { reoffered } : {}),
		// A whole-tree grant must be in place before the next queued ask checks whether it is covered.
		keepGrants: (grants) => deps.grants.add(grants.filter((g) => g.scope === "tree")),
		settledElsewhere: () => {
			const covering = findCoveringGrant(
				action,
				deps.grants.list().filter((g) => g.scope === "tree"),
				deps.policy(),
			);
			return covering
				? {
						outcome: "allow",
						source: {
							kind: "session_grant",
							grantId: covering.id,
							surface: covering.surface,
							pattern: covering.pattern,
							scope: "tree",
						},
						scope: "once",
						grants: [],
					}
				: null;
		},
	});
	return done(answerOf(result, deps), outcomeOf(result, what, action.tier, chain.steps));
}

function answerOf(result: TerminalDecision, deps: GateDeps): ServerAnswer {
	switch (result.outcome) {
		case "allow":
			if (result.scope === "tree") {
				// The parent keeps a whole-tree grant itself; children re-ask and are answered from it.
				deps.grants.add(result.grants);
				return { decision: "allow", scope: "tree", grants: [], source: result.source };
			}
			if (result.scope === "subagent") {
				return {
					decision: "allow",
					scope: "subagent",
					grants: result.grants.map((g) => ({ surface: g.surface, pattern: g.pattern, limit: g.limit })),
					source: result.source,
				};
			}
			return allowOnce(result.source);
		case "deny":
			return deny(result.source, result.userReason);
		case "parked":
			return {
				decision: "parked",
				scope: "once",
				grants: [],
				source: result.source,
				reason: result.requestId,
			};
	}
}

function outcomeOf(
	result: TerminalDecision,
	what: string,
	tier: ClassifiedAction["tier"],
	chain: GateOutcome["chain"],
): Omit<GateOutcome, "action"> {
	switch (result.outcome) {
		case "allow":
			return {
				outcome: "allow",
				mode: "ask",
				source: result.source,
				reason: "answered for a subagent",
				chain,
			};
		case "deny":
			return {
				outcome: "deny",
				mode: "ask",
				source: result.source,
				reason: askDenyReason(what, tier, result.source, result.userReason),
				chain,
			};
		case "parked":
			return {
				outcome: "pending",
				mode: "ask",
				source: result.source,
				reason: parkedReason(what, result.requestId),
				chain,
				requestId: result.requestId,
			};
	}
}

const UNANSWERED_ORDER: readonly UnansweredPolicy[] = ["wait", "defer", "deny"];

/** The child's wish and this session's own policy: the stricter one applies (wait < defer < deny). */
function strictestUnanswered(a: UnansweredPolicy, b: UnansweredPolicy): UnansweredPolicy {
	return UNANSWERED_ORDER.indexOf(a) >= UNANSWERED_ORDER.indexOf(b) ? a : b;
}

function allowOnce(source: DecisionSource): ServerAnswer {
	return { decision: "allow", scope: "once", grants: [], source };
}

function deny(source: DecisionSource, reason?: string): ServerAnswer {
	return { decision: "deny", scope: "once", grants: [], source, ...(reason ? { reason } : {}) };
}

/** The child's identity as the request claims it: a subagent with its path from the root (sanitized). */
export function originOfRequest(request: ForwardRequest): Origin {
	const name = request.path.at(-1) ?? "subagent";
	return resolveOrigin({ subagent: { name, path: request.path }, env: {}, hasUI: false });
}

/**
 * The action as this session classifies it from the request's tool, input and cwd — its own tier, parts and
 * preview, never the child's account of them. For a tool this session knows (pi's built-in tools), the child's
 * declared hash and tier must be what this session computes (or a stricter tier of the same input): a request
 * that disagrees is refused. A tool only the
 * child knows (another extension's) cannot be checked here: the stricter tier of the two is used. The child's hash
 * is kept, so an approval given here matches what the child runs again.
 */
function actionOfRequest(
	request: ForwardRequest,
	deps: GateDeps,
	policy: EffectivePolicy,
): { readonly action: ClassifiedAction } | { readonly mismatch: string } {
	const mine = deps.classify({ tool: request.tool, input: request.input, cwd: request.cwd }, policy);
	if (mine.hash === request.actionHash && mine.tier === request.tier) return { action: mine };
	// A child whose own config raises the tier (operator commandTiers) is stricter, not lying: accepted when its
	// hash is that of this very input at the tier it declares, so an approval still matches what it runs.
	const stricter = tierRank(request.tier) > tierRank(mine.tier);
	if (stricter && actionHash({ ...mine, tier: request.tier }) === request.actionHash) {
		return { action: { ...mine, tier: request.tier, hash: request.actionHash } };
	}
	if (isBuiltInTool(request.tool)) {
		return {
			mismatch: `the subagent's request does not match its own action: it declares tier ${request.tier} and hash ${request.actionHash.slice(0, 12)}…, this session classifies the ${request.tool} call as ${mine.tier} (hash ${mine.hash.slice(0, 12)}…); refused without asking anyone`,
		};
	}
	return { action: { ...mine, tier: maxTier(mine.tier, request.tier), hash: request.actionHash } };
}
