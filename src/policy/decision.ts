/** What the policy step decides for one action, and on what basis (the provenance the audit records). */
import type { PathGuard } from "../classify/action.ts";
import type { Origin } from "../origin/origin.ts";
import type { UserSurface } from "../provenance/decision-source.ts";
import type { ConfigFileError } from "./config-error.ts";
import type { AgentMatcher } from "./effective-policy.ts";
import type { RuleRef, TierRef } from "./policy-rule.ts";
import type { SessionGrant } from "./grant-coverage.ts";
import type { DecidedPart } from "./tier-floors.ts";

/** A config rule decided, for the named part. */
export interface RuleBasis {
	readonly kind: "rule";
	readonly rule: RuleRef;
	readonly part: DecidedPart;
}

/** The part's tier mode decided: a built-in default or a `tiers` override. */
export interface TierBasis {
	readonly kind: "tier";
	readonly rule: TierRef;
	readonly part: DecidedPart;
}

/** A path the gate guards for itself: refused, or only a human may allow it (adr/0014). */
export interface GuardBasis {
	readonly kind: "guard";
	readonly guard: PathGuard;
	readonly part: DecidedPart;
}

export interface AgentRuleBasis {
	readonly kind: "agent_rule";
	readonly matcher: AgentMatcher;
}

/** A config file in force is invalid: everything is denied until it is fixed. */
export interface ConfigErrorBasis {
	readonly kind: "config_error";
	readonly error: ConfigFileError;
}

export interface SessionGrantBasis {
	readonly kind: "session_grant";
	readonly grant: SessionGrant;
	readonly part: DecidedPart;
}

/** An approval given later for a parked request: which request, and where the human gave it. */
export interface ParkedApprovalRef {
	readonly requestId: string;
	readonly approvedVia: UserSurface;
}

/** A human approved a parked request for exactly this action hash. */
export interface ParkedApprovalBasis extends ParkedApprovalRef {
	readonly kind: "parked_approval";
	readonly hash: string;
}

interface DecisionCommon {
	/** The `agentRules.allow` entry matching the origin, if any: reported, never a bypass. */
	readonly agentAllow: AgentMatcher | null;
	/** Things the human or the audit should know, e.g. an allow rule that matched above the grant ceiling. */
	readonly notes: readonly string[];
}

export interface DenyDecision extends DecisionCommon {
	readonly mode: "deny";
	readonly basis: RuleBasis | TierBasis | AgentRuleBasis | ConfigErrorBasis | GuardBasis;
}

export interface AskDecision extends DecisionCommon {
	readonly mode: "ask";
	/** A guard, else an explicit ask rule when one forced the ask, else the tier mode of the highest-tier asking part. */
	readonly basis: RuleBasis | TierBasis | GuardBasis;
	/** False when an explicit ask rule or a guard forced the ask: a session grant would not stop it asking. */
	readonly grantable: boolean;
	/** A guarded path: only a human may answer, no authorizer link (adr/0014). */
	readonly humanOnly: boolean;
	/** The parts that asked (what a dialog shows and a forwarded request carries). */
	readonly askingParts: readonly DecidedPart[];
}

export interface AutoDecision extends DecisionCommon {
	readonly mode: "auto";
	/** For several parts, the basis of the highest-tier part. */
	readonly basis: RuleBasis | TierBasis | SessionGrantBasis | ParkedApprovalBasis;
}

export type Decision = DenyDecision | AskDecision | AutoDecision;

export interface DecideContext {
	readonly origin: Origin;
	readonly grants: readonly SessionGrant[];
	/** The approval of a parked request for exactly `action.hash`, when there is one. */
	readonly parkedApproval: ParkedApprovalRef | null;
}
