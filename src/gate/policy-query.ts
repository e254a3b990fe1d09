import type { PolicyQuery, QueryResult } from "../authority/authorizer-link.ts";
import type { SessionGrants } from "../authority/session-grants.ts";
import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import type { ParkedApprovals } from "../hub/parked-approvals.ts";
import type { Origin } from "../origin/origin.ts";
import { decide } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
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
