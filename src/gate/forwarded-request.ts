/**
 * What is particular to an ask a child forwarded (adr/0006): who asks, the action as this session judges it from
 * the request, what may allow it without asking (its policy step), and whether an answer to it stands. The
 * pipeline (adr/0002) decides it like any other ask.
 */
import { suggestGrants } from "../authority/suggest-grant.ts";
import type { TerminalDecision, UnansweredPolicy } from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import { actionHash } from "../classify/action-hash.ts";
import { isBuiltInTool } from "../classify/builtin-tools.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import type { Origin } from "../origin/origin.ts";
import { resolveOrigin } from "../origin/origin.ts";
import { UNNAMED } from "../origin/shown-name.ts";
import { findDeny, forwardedAskLimits } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { humanDecided } from "../provenance/decision-source.ts";
import { maxTier, tierRank } from "../vocabulary/tier.ts";
import { deniedBy, type PolicyContext, type PolicyStep } from "./ask-plan.ts";
import type { ForwardedGateRequest, GateRequest } from "./gate-outcome.ts";
import { treeGrantSource } from "./tree-grants.ts";

/**
 * The child's identity as the request claims it: a subagent with its path from the root (sanitized), shown by
 * the labels this session worked out for it (adr/0025) when given.
 */
export function originOfRequest(
	request: Pick<ForwardRequest, "path">,
	shown?: readonly string[] | null,
): Origin {
	const name = request.path.at(-1) ?? UNNAMED;
	return resolveOrigin({
		subagent: { name, path: request.path, ...(shown ? { shown } : {}) },
		env: {},
		hasUI: false,
	});
}

/**
 * The action as this session classifies it from the request's tool, input and cwd — its own tier, parts and
 * preview, never the child's account of them. For a tool this session knows (pi's built-in tools), the child's
 * declared hash and tier must be what this session computes (or a stricter tier of the same input): a request
 * that disagrees is refused. A tool only the child knows (another extension's) cannot be checked here: the
 * stricter tier of the two is used. The child's hash is kept, so an approval given here matches what the child
 * runs again.
 */
export function judgeRequest(
	request: ForwardRequest,
	classify: (call: ToolCall, policy: EffectivePolicy) => ClassifiedAction,
	policy: EffectivePolicy,
): { readonly action: ClassifiedAction } | { readonly refused: string } {
	const mine = classify({ tool: request.tool, input: request.input, cwd: request.cwd }, policy);
	if (mine.hash === request.actionHash && mine.tier === request.tier) return { action: mine };
	// A child whose own config raises the tier (operator commandTiers) is stricter, not lying: accepted when its
	// hash is that of this very input at the tier it declares, so an approval still matches what it runs.
	const stricter = tierRank(request.tier) > tierRank(mine.tier);
	if (stricter && actionHash({ ...mine, tier: request.tier }) === request.actionHash) {
		return { action: { ...mine, tier: request.tier, hash: request.actionHash } };
	}
	if (isBuiltInTool(request.tool)) {
		return {
			refused: `the subagent's request does not match its own action: it declares tier ${request.tier} and hash ${request.actionHash.slice(0, 12)}…, this session classifies the ${request.tool} call as ${mine.tier} (hash ${mine.hash.slice(0, 12)}…); refused without asking anyone`,
		};
	}
	return { action: { ...mine, tier: maxTier(mine.tier, request.tier), hash: request.actionHash } };
}

const UNANSWERED_ORDER: readonly UnansweredPolicy[] = ["wait", "defer", "deny"];

/** The child's wish and this session's own policy: the stricter one applies (wait < defer < deny). */
function strictestUnanswered(a: UnansweredPolicy, b: UnansweredPolicy): UnansweredPolicy {
	return UNANSWERED_ORDER.indexOf(a) >= UNANSWERED_ORDER.indexOf(b) ? a : b;
}

/** Added to a forwarded ask's why when the asker's own policy made it human-only: the dialog and audit say so. */
const ASKER_HUMAN_ONLY = "only a human may answer (the asking agent's own policy says so)";

/**
 * The policy step (adr/0002, step 2) for a child's ask: after the deny rules, only this session's whole-tree
 * grants and a parked approval for this exact action allow it without asking. The child asked because its own,
 * possibly stricter, policy said so, so this session's allow rules and tier modes do not approve it (adr/0006).
 */
export function forwardedStep(request: ForwardedGateRequest, context: PolicyContext): PolicyStep {
	const { action, origin, what, deps, policy, timeoutMs, unanswered } = context;
	const { request: forwarded, signal } = request.served;
	const denied = findDeny(action, policy, origin);
	if (denied) return deniedBy(what, denied);
	// The child's own policy (a file this session never reads) may say only a human answers: that only makes
	// the ask stricter, so it is trusted as sent; its absence relaxes nothing decided below (adr/0006).
	const askerHumanOnly = forwarded.humanOnly === true;
	const why = askerHumanOnly ? `${forwarded.why}; ${ASKER_HUMAN_ONLY}` : forwarded.why;
	const asked = { mode: "ask", why } as const;
	const grant = askerHumanOnly ? null : deps.treeGrants.covering(action, policy, origin);
	if (grant) {
		return {
			settled: { ...asked, outcome: "allow", source: treeGrantSource(grant), reason: "whole-tree grant" },
		};
	}
	// An agents section's ask (adr/0022) or a guarded path (adr/0014) is answered by a human alone: by no
	// approval given to another asker, nor one a link, rule or grant settled.
	const limits = forwardedAskLimits(action, policy, origin);
	const approval = deps.parked.find(action.hash);
	const counts =
		approval !== null &&
		limits.approvalCounts(approval) &&
		(!askerHumanOnly || humanDecided(approval.approvedBy));
	if (approval && counts && deps.parked.consume(approval)) {
		const { requestId, approvedBy } = approval;
		const source = { kind: "parked_approval", requestId, approvedBy } as const;
		return { settled: { ...asked, outcome: "allow", source, reason: "parked approval" } };
	}
	// A guarded path is for a human alone: no authorizer link is asked (adr/0014).
	const humanOnly =
		askerHumanOnly || limits.bySection || action.parts.some((part) => part.guard?.kind === "human");
	// This session's ask rule forces the ask here as it would for its own call: not grantable.
	const grantable = forwarded.grantable && !limits.byRule;
	const askingParts = action.parts
		.filter((part) => part.tier !== "read")
		.map((part) => ({ part, tier: part.tier }));
	return {
		plan: {
			kind: "forwarded",
			why,
			humanOnly,
			askRule: !grantable,
			chain: [],
			askingParts,
			// Patterns this session works out itself from the action: it never offers one the child supplied.
			suggestions: grantable && !humanOnly ? suggestGrants(action.tool, askingParts) : [],
			unanswered: strictestUnanswered(forwarded.unanswered, unanswered),
			timeoutMs,
			deadline: Date.parse(forwarded.expiresAt),
			signal,
			forwarded: {
				kind: "forwarded",
				request: forwarded,
				...(request.reoffered ? { reoffered: request.reoffered } : {}),
				// A whole-tree grant must be in place before the next queued ask checks whether it is covered.
				keepGrants: (decision) =>
					deps.treeGrants.keep(decision.grants, () => answerStands(request, decision)),
				settledElsewhere: () => {
					const current = deps.policy();
					return askerHumanOnly ? null : deps.treeGrants.settle(action, current, origin);
				},
			},
		},
	};
}

/**
 * Whether an answer's grants and saved rules may take effect: a parked ask's answer only once the parked store
 * took it, since one it refuses counts for nothing (adr/0006). Called only for an answer that carries some.
 */
export function answerStands(
	request: GateRequest,
	terminal: Exclude<TerminalDecision, { outcome: "parked" }>,
): boolean {
	if (request.kind !== "forwarded" || !request.record) return true;
	const reason = terminal.outcome === "deny" ? terminal.userReason : undefined;
	return request.record.store({
		decision: terminal.outcome,
		source: terminal.source,
		...(reason ? { reason } : {}),
	}).ok;
}
