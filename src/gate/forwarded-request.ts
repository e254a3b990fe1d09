/**
 * What is particular to an ask a child forwarded (adr/0006): who asks, the action as this session judges it from
 * the request, and the answer that goes back to the child. The pipeline (adr/0002) decides it like any other ask.
 */
import type { UnansweredPolicy } from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import { actionHash } from "../classify/action-hash.ts";
import { isBuiltInTool } from "../classify/builtin-tools.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import type { Origin } from "../origin/origin.ts";
import { resolveOrigin } from "../origin/origin.ts";
import { UNNAMED } from "../origin/shown-name.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { SessionGrant } from "../policy/grant-coverage.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import { maxTier, tierRank } from "../vocabulary/tier.ts";

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
export function strictestUnanswered(a: UnansweredPolicy, b: UnansweredPolicy): UnansweredPolicy {
	return UNANSWERED_ORDER.indexOf(a) >= UNANSWERED_ORDER.indexOf(b) ? a : b;
}

export function treeGrantSource(grant: SessionGrant): DecisionSource {
	return {
		kind: "session_grant",
		grantId: grant.id,
		surface: grant.surface,
		pattern: grant.pattern,
		scope: grant.scope,
	};
}
