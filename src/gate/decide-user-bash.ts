import { findDeny } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { sourceOfBasis } from "./basis-source.ts";
import { describeCall, policyDenyReason } from "./block-reason.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { GateOutcome } from "./gate-outcome.ts";

/**
 * A command the human typed (`!cmd`, RPC `bash`): deny rules and agent-rule denies apply, but nobody is asked
 * about their own command, so anything not denied runs, recorded as the human's decision.
 */
export function decideUserBash(
	command: string,
	cwd: string,
	deps: GateDeps,
	policy: EffectivePolicy,
): GateOutcome {
	const action = deps.classify({ tool: "bash", input: { command }, cwd }, policy);
	const denied = findDeny(action, policy, deps.origin);
	if (denied) {
		return {
			outcome: "deny",
			mode: "deny",
			source: sourceOfBasis(denied.basis),
			action,
			reason: policyDenyReason(
				describeCall(action, "bash").replace("this bash call", "this command"),
				denied,
			),
			chain: [],
		};
	}
	return {
		outcome: "allow",
		mode: "auto",
		source: { kind: "user", via: "typed", verdict: "allow", scope: "once" },
		action,
		reason: "typed by the user",
		chain: [],
	};
}
