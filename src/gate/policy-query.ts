import type { PolicyQuery, QueryResult } from "../authority/authorizer-link.ts";
import type { SessionGrants } from "../authority/session-grants.ts";
import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import type { ParkedApprovals } from "../hub/parked-store.ts";
import type { Origin } from "../origin/origin.ts";
import { decide } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { processWide } from "../process-wide.ts";
import { describeDecisionSource } from "../provenance/describe-decision-source.ts";
import { sourceOfBasis } from "./basis-source.ts";

export interface PolicyQueryDeps {
	readonly policy: () => EffectivePolicy;
	readonly classify: (call: ToolCall, policy: EffectivePolicy) => ClassifiedAction;
	readonly grants: SessionGrants;
	readonly parked: ParkedApprovals;
	readonly origin: Origin;
	readonly cwd: string;
}

/** What the policy would decide for a call, without asking anyone, recording anything or using up approvals. */
export function createPolicyQuery(deps: PolicyQueryDeps): PolicyQuery {
	return {
		async decide(call): Promise<QueryResult> {
			const policy = deps.policy();
			const action = deps.classify({ tool: call.tool, input: call.input, cwd: call.cwd ?? deps.cwd }, policy);
			const decision = decide(action, policy, {
				origin: deps.origin,
				grants: deps.grants.list(),
				parkedApproval: deps.parked.find(action.hash),
			});
			return {
				mode: decision.mode,
				tier: action.tier,
				actionHash: action.hash,
				basis: describeDecisionSource(sourceOfBasis(decision.basis)),
			};
		},
	};
}

/**
 * Live sessions publish their read-only policy query here so another extension can ask "what would happen?"
 * without a handle on the session. Keyed by session id; the newest session answers when none is named.
 */
function table(): Map<string, PolicyQuery> {
	return processWide<Map<string, PolicyQuery>>("policy-queries.v1", () => new Map());
}

export function publishPolicyQuery(sessionId: string, query: PolicyQuery): () => void {
	table().delete(sessionId);
	table().set(sessionId, query);
	return () => {
		if (table().get(sessionId) === query) table().delete(sessionId);
	};
}

export interface QueryCall {
	readonly tool: string;
	readonly input: Readonly<Record<string, unknown>>;
	readonly cwd?: string;
	/** Which session's policy to ask; the most recently started session when omitted. */
	readonly sessionId?: string;
}

/**
 * What the policy would decide for this call: mode, tier, action hash and the basis, without asking anyone,
 * recording anything or using up an approval. Rejects when no gated session is running in this process.
 */
export async function queryDecision(call: QueryCall): Promise<QueryResult> {
	const queries = table();
	const query = call.sessionId ? queries.get(call.sessionId) : [...queries.values()].at(-1);
	if (!query) throw new Error("pi-permission-hub: no gated session is running in this process");
	return query.decide({ tool: call.tool, input: call.input, ...(call.cwd ? { cwd: call.cwd } : {}) });
}
