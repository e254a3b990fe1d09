/**
 * What one session's gate needs to decide: the session's policy, classifier, grants, parked approvals, links
 * and terminal authorizer, built once per session by `SessionGate` and shared by every kind of decision.
 */
import type { AuthorizerLink, PolicyQuery } from "../authority/authorizer-link.ts";
import type { SessionGrants } from "../authority/session-grants.ts";
import type { TerminalAuthorizer, UnansweredPolicy } from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import type { ParkedApprovals } from "../hub/parked-approvals.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { Delegation } from "./delegation-guard.ts";

/** What one session's gate needs to decide a call. Built once per session; cheap to call per tool call. */
export interface GateDeps {
	readonly sessionId: string;
	readonly policy: () => EffectivePolicy;
	readonly classify: (call: ToolCall, policy: EffectivePolicy) => ClassifiedAction;
	readonly grants: SessionGrants;
	readonly parked: ParkedApprovals;
	readonly lookupLink: (name: string) => AuthorizerLink | undefined;
	readonly policyQuery: PolicyQuery;
	readonly terminal: () => TerminalAuthorizer;
	/** The unanswered policy when the config does not set one (wait with a human, defer without). */
	readonly defaultUnanswered: UnansweredPolicy;
	/** Whether the call delegates to a known subagent launcher, and whether its children would be gated. */
	readonly delegation: (call: ToolCall) => Delegation | null;
}
