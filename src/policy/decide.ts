/**
 * The policy step of the decision (adr/0002, step 2), in precedence order:
 *   1. a config error, or an agent-rule deny for the origin        → deny
 *   2. a deny rule on any surface of any part, a path the gate refuses (its inbox), or a tier set to deny → deny
 *   3. a parked approval for exactly this action hash               → auto
 *        (for an ask only a human may answer, only an approval a human gave: not a link's, rule's or grant's)
 *      a path the gate guards (its files, pi's settings, .git/hooks…) → ask a human, nothing else (adr/0014)
 *   4. per part, strictest part wins:
 *        an ask rule → ask (not grantable) | a session grant → auto |
 *        an allow rule within the grant ceiling → auto | the tier's mode
 * Grants and approvals come after every deny, so nothing a human clicked can outrank a deny rule. A decision
 * names its basis: the provenance the audit records. An ask from a subagent is decided by the policy limited by
 * the `agents` sections on its path (adr/0022): their asks come first in step 4, answered by a human alone, and a
 * parked approval counts for them only when a human gave it to a request from such an origin.
 */
import type { ClassifiedAction, PathGuard } from "../classify/action.ts";
import { type Origin, originName } from "../origin/origin.ts";
import { type DecisionSource, humanDecided } from "../provenance/decision-source.ts";
import { tierRank, withinCeiling } from "../vocabulary/tier.ts";
import { approvalFitsLimits, policyForOrigin } from "./agent-limits.ts";
import type { ConfigFileError } from "./config-error.ts";
import type { AgentMatcher, EffectivePolicy } from "./effective-policy.ts";
import { findGrantForPart, type SessionGrant } from "./grant-coverage.ts";
import {
	findCoveringAllowRule,
	findMatchingRule,
	type RuleRef,
	type TierRef,
	withinRuleLimit,
} from "./policy-rule.ts";
import { type DecidedPart, decidedParts } from "./tier-settings.ts";

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

/** An approval given later for a parked request: which request, and what settled it. */
export interface ParkedApprovalRef {
	readonly requestId: string;
	readonly approvedBy: DecisionSource;
}

/** An approval found for the action's hash, with who the parked request came from. */
export interface ParkedApprovalFound extends ParkedApprovalRef {
	/** The agent names of the parked request's origin, root first: what the human saw as "requested by". */
	readonly askerPath: readonly string[];
}

/** A parked request for exactly this action hash was approved (`approvedBy` says by whom: a human, a link, …). */
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
	/** A guarded path (adr/0014) or an agents section's ask (adr/0022): only a human may answer, no authorizer link. */
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
	readonly parkedApproval: ParkedApprovalFound | null;
}

export function decide(
	action: ClassifiedAction,
	topLevel: EffectivePolicy,
	context: DecideContext,
): Decision {
	const policy = policyForOrigin(topLevel, context.origin);
	const parts = decidedParts(action, policy);
	const denied = denyFor(action, policy, context.origin, parts);
	if (denied) return denied;
	const agentAllow = matchAgentRule(policy.agentRules.allow, context.origin);
	const notes: string[] = [];
	const outcomes = parts.map((part) => decidePart(action, policy, context.grants, part, notes));
	const asking = outcomes.filter((o): o is AskOutcome => o.mode === "ask");
	const guarded = parts.find((part) => part.part.guard?.kind === "human");
	const humanOnly = guarded !== undefined || asking.some((o) => o.byAgentSection);
	const approval = context.parkedApproval;
	if (approval && approvalCounts(approval, policy, humanOnly)) {
		const { requestId, approvedBy } = approval;
		const basis = { kind: "parked_approval", hash: action.hash, requestId, approvedBy } as const;
		return { mode: "auto", basis, agentAllow, notes: [] };
	}
	if (guarded?.part.guard !== undefined) {
		// Nothing but a human answers for a guarded path: not a rule, a grant, a tier default or a link.
		const askingParts = [
			guarded,
			...asking.map((o) => o.basis.part).filter((p) => p.index !== guarded.index),
		];
		return {
			mode: "ask",
			basis: { kind: "guard", guard: guarded.part.guard, part: guarded },
			grantable: false,
			humanOnly: true,
			askingParts,
			agentAllow,
			notes,
		};
	}
	if (asking.length > 0) {
		const forced = asking.find((o) => o.forced);
		return {
			mode: "ask",
			basis: (forced ?? highestTier(asking)).basis,
			grantable: forced === undefined,
			humanOnly: asking.some((o) => o.byAgentSection),
			askingParts: asking.map((o) => o.basis.part),
			agentAllow,
			notes,
		};
	}
	return { mode: "auto", basis: highestTier(outcomes).basis, agentAllow, notes };
}

/**
 * What a parent deciding a child's forwarded ask (after `findDeny`) needs from the policy limited for the child's
 * origin, worked out once per ask.
 */
export interface ForwardedAskLimits {
	/**
	 * An agents section on the origin's path asks about some part (adr/0022): that ask is for a human alone (no
	 * link), and no grant may be offered for it.
	 */
	readonly bySection: boolean;
	/** An ask rule matches some part: the ask is not grantable, so no grant is offered for it or answers it. */
	readonly byRule: boolean;
	/** Whether a parked approval for this action's hash answers it, by the same test `decide` applies. */
	approvalCounts(approval: ParkedApprovalFound): boolean;
}

export function forwardedAskLimits(
	action: ClassifiedAction,
	topLevel: EffectivePolicy,
	origin: Origin,
): ForwardedAskLimits {
	const policy = policyForOrigin(topLevel, origin);
	const parts = decidedParts(action, policy);
	const bySection = parts.some((part) => agentSectionAsk(action, policy, part) !== null);
	const byRule = parts.some((part) => askRuleFor(action, policy, part) !== null);
	const humanOnly = bySection || parts.some((part) => part.part.guard?.kind === "human");
	return { bySection, byRule, approvalCounts: (approval) => approvalCounts(approval, policy, humanOnly) };
}

/**
 * Whether a parked approval answers an ask that passed every deny, under `policy` (already limited for the
 * origin): one given to a request from an origin with the limiting sections' names (adr/0022), and, for an ask
 * only a human may answer (a guarded path, a section's ask), one a human settled — not a link, rule or grant of
 * the session that served the parked request (adr/0014).
 */
function approvalCounts(approval: ParkedApprovalFound, policy: EffectivePolicy, humanOnly: boolean): boolean {
	return approvalFitsLimits(policy, approval.askerPath) && (!humanOnly || humanDecided(approval.approvedBy));
}

/**
 * Steps 1–2 alone: the deny, if any. A parent deciding a child's forwarded ask applies its own denies with
 * this, then its grants (`findCoveringGrant`) — never its allow rules or tier defaults.
 */
export function findDeny(
	action: ClassifiedAction,
	topLevel: EffectivePolicy,
	origin: Origin,
): DenyDecision | null {
	const policy = policyForOrigin(topLevel, origin);
	return denyFor(action, policy, origin, decidedParts(action, policy));
}

/**
 * When every part is covered by some grant, the grant covering the highest-tier part; else null. Grants are
 * checked after `findDeny`, never instead of it, and never answer what an ask rule or an agents section of
 * `origin` asks (as in `decide`, where such an ask is forced and not grantable).
 */
export function findCoveringGrant(
	action: ClassifiedAction,
	grants: readonly SessionGrant[],
	topLevel: EffectivePolicy,
	origin: Origin,
): SessionGrant | null {
	let best: { grant: SessionGrant; part: DecidedPart } | null = null;
	const policy = policyForOrigin(topLevel, origin);
	const parts = decidedParts(action, policy);
	if (parts.some((part) => part.part.guard !== undefined)) return null;
	if (parts.some((part) => agentSectionAsk(action, policy, part) !== null)) return null;
	if (parts.some((part) => askRuleFor(action, policy, part) !== null)) return null;
	const readsRunUnasked = policy.tiers.read.mode === "auto";
	for (const part of parts) {
		const grant = findGrantForPart(grants, policy.context, action, part.part, part.tier, readsRunUnasked);
		if (grant === null) return null;
		if (best === null || tierRank(part.tier) > tierRank(best.part.tier)) best = { grant, part };
	}
	return best?.grant ?? null;
}

function askRuleFor(action: ClassifiedAction, policy: EffectivePolicy, part: DecidedPart): RuleBasis | null {
	const rule = findMatchingRule(policy.index.ask, action, part.part, policy.context.cwd);
	return rule ? { kind: "rule", rule: rule.ref, part } : null;
}

/**
 * The ask an agents section forces on the part, if any: one of its ask rules, else its `ask` tier setting. It
 * comes before grants and allow rules, since those were given for everyone and the section restricts one agent.
 */
function agentSectionAsk(
	action: ClassifiedAction,
	policy: EffectivePolicy,
	part: DecidedPart,
): RuleBasis | TierBasis | null {
	if (policy.limits === null) return null;
	const rule = findMatchingRule(policy.limits.ask, action, part.part, policy.context.cwd);
	if (rule) return { kind: "rule", rule: rule.ref, part };
	const tier = policy.tiers[part.tier];
	if (tier.mode === "ask" && tier.ref.agent !== undefined) return { kind: "tier", rule: tier.ref, part };
	return null;
}

function denyFor(
	action: ClassifiedAction,
	policy: EffectivePolicy,
	origin: Origin,
	parts: readonly DecidedPart[],
): DenyDecision | null {
	const agentAllow = matchAgentRule(policy.agentRules.allow, origin);
	const deny = (basis: DenyDecision["basis"]): DenyDecision => ({
		mode: "deny",
		basis,
		agentAllow,
		notes: [],
	});
	const [configError] = policy.configErrors;
	if (configError) return deny({ kind: "config_error", error: configError });
	const agentDeny = matchAgentRule(policy.agentRules.deny, origin);
	if (agentDeny) return deny({ kind: "agent_rule", matcher: agentDeny });
	for (const part of parts) {
		const rule = findMatchingRule(policy.index.deny, action, part.part, policy.context.cwd);
		if (rule) return deny({ kind: "rule", rule: rule.ref, part });
	}
	for (const part of parts) {
		if (part.part.guard?.kind === "refuse") return deny({ kind: "guard", guard: part.part.guard, part });
	}
	for (const part of parts) {
		const tier = policy.tiers[part.tier];
		if (tier.mode === "deny") return deny({ kind: "tier", rule: tier.ref, part });
	}
	return null;
}

interface AskOutcome {
	readonly mode: "ask";
	readonly basis: RuleBasis | TierBasis;
	/** An explicit ask rule, which a session grant does not override. */
	readonly forced: boolean;
	/** An agents section's ask, which only a human answers. */
	readonly byAgentSection: boolean;
}

interface AutoOutcome {
	readonly mode: "auto";
	readonly basis: RuleBasis | TierBasis | SessionGrantBasis;
}

function decidePart(
	action: ClassifiedAction,
	policy: EffectivePolicy,
	grants: readonly SessionGrant[],
	part: DecidedPart,
	notes: string[],
): AskOutcome | AutoOutcome {
	const { cwd } = policy.context;
	const agentAsk = agentSectionAsk(action, policy, part);
	if (agentAsk) return { mode: "ask", basis: agentAsk, forced: true, byAgentSection: true };
	const askRule = askRuleFor(action, policy, part);
	if (askRule) return { mode: "ask", basis: askRule, forced: true, byAgentSection: false };
	const readsRunUnasked = policy.tiers.read.mode === "auto";
	const grant = findGrantForPart(grants, policy.context, action, part.part, part.tier, readsRunUnasked);
	if (grant) return { mode: "auto", basis: { kind: "session_grant", grant, part } };
	const covering = findCoveringAllowRule(policy.index.allow, action, part.part, cwd, readsRunUnasked);
	// A limited rule that cannot cover this part does not decide it; the part is then asked about (a later,
	// unlimited rule is not looked for: the strict direction).
	const allowRule = covering && withinRuleLimit(covering.limit, part.part, part.tier) ? covering : null;
	const ceiling = policy.grantCeiling.tier;
	if (allowRule) {
		if (withinCeiling(part.tier, ceiling))
			return { mode: "auto", basis: { kind: "rule", rule: allowRule.ref, part } };
		const { origin, pattern, surface } = allowRule.ref;
		notes.push(
			`allow ${surface} "${pattern}" (${origin.file}, ${origin.jsonPath}) matches part ${part.index + 1} ` +
				`(${describePart(action, part)}) at tier ${part.tier}, above the grant ceiling (${ceiling}); it is not auto-approved`,
		);
	}
	const tier = policy.tiers[part.tier];
	const basis: TierBasis = { kind: "tier", rule: tier.ref, part };
	return tier.mode === "auto"
		? { mode: "auto", basis }
		: { mode: "ask", basis, forced: false, byAgentSection: false };
}

function highestTier<T extends { readonly basis: { readonly part: DecidedPart } }>(
	outcomes: readonly T[],
): T {
	const [first, ...rest] = outcomes;
	if (first === undefined) throw new Error("an action always has at least one part to decide");
	return rest.reduce(
		(top, o) => (tierRank(o.basis.part.tier) > tierRank(top.basis.part.tier) ? o : top),
		first,
	);
}

function describePart(action: ClassifiedAction, part: DecidedPart): string {
	const text = part.part.command?.text ?? part.part.paths[0]?.typed ?? `the ${action.tool} call`;
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The first matcher for this origin's kind whose name (if it has one) equals the origin's name exactly. */
function matchAgentRule(matchers: readonly AgentMatcher[], origin: Origin): AgentMatcher | null {
	for (const matcher of matchers) {
		if (matcher.kind !== origin.kind) continue;
		if (matcher.name === null || matcher.name === originName(origin)) return matcher;
	}
	return null;
}
