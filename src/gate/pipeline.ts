/**
 * The one decision pipeline (adr/0002). Every kind of ask — this session's own tool call, a command its human
 * typed, an ask a child forwarded, and a delegation whose children would run ungated — passes the same ordered
 * steps, with the kind as data:
 *
 *   1. classify   the call (a forwarded request is judged on its tool, input and cwd; a mismatch is refused)
 *   2. policy     deny rules first, then what may allow without asking (per kind, below), else an ask
 *   3. links      the authorizer chain, unless only a human may answer
 *   4. terminal   this session's human, its parent, or nobody (park or refuse)
 *
 * and the `GateOutcome` is built here alone. An error anywhere blocks the call as a gate error.
 */
import type { ChainStep } from "../audit/audit-entry.ts";
import { deepFreeze, runAuthorizerChain } from "../authority/run-authorizer-chain.ts";
import { suggestGrants } from "../authority/suggest-grant.ts";
import type {
	Ask,
	AskCommon,
	ForwardedOnly,
	Reoffer,
	TerminalDecision,
} from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import type { ServedAsk } from "../hub/transport.ts";
import type { PlannedChange } from "../launchers/settings-change.ts";
import type { Origin } from "../origin/origin.ts";
import { decide, findCoveringGrant, findDeny, forwardedAskLimits } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { capSourceText, type DecisionSource, humanDecided, userOnce } from "../provenance/decision-source.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { type Mode, withinCeiling } from "../vocabulary/tier.ts";
import { describeAskWhy, sourceOfBasis } from "./basis-source.ts";
import {
	askDenyReason,
	DELEGATION_GUARD_STEP,
	describeCall,
	gateErrorReason,
	parkedReason,
	policyDenyReason,
	ungatedDelegationBlockReason,
	ungatedDelegationWhy,
} from "./block-reason.ts";
import { judgeRequest, originOfRequest, strictestUnanswered, treeGrantSource } from "./forwarded-request.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { ParkedAnswerRecord } from "./parked-answer-record.ts";
import {
	askingEffect,
	dontAskRefusal,
	type PolicyVerdict,
	permissionModeEffect,
} from "./permission-mode-step.ts";

/** What the gate is asked to decide: the kind of ask is data, and the steps below read it. */
export type GateRequest =
	| { readonly kind: "tool_call"; readonly call: ToolCall; readonly signal?: AbortSignal }
	| { readonly kind: "user_bash"; readonly command: string; readonly cwd: string }
	| {
			readonly kind: "forwarded";
			readonly served: ServedAsk;
			readonly reoffered?: Reoffer;
			/** How this session shows the request's hops (adr/0025); the claimed names when absent. */
			readonly shown?: readonly string[] | null;
			/**
			 * For a parked ask (`defer`): where its answer is stored. A human's answer is stored before its grants or
			 * saved rules take effect; one the store refuses takes no effect at all.
			 */
			readonly record?: ParkedAnswerRecord;
	  };

/** The step of the pipeline that decided. */
export type PipelineStep = "classify" | "policy" | "links" | "terminal" | "error";

/** The gate's answer for one ask, with everything the audit line, the decision event and a child's answer need. */
export interface GateOutcome {
	readonly outcome: "allow" | "deny" | "pending";
	/** What the policy step said before any chain or dialog (`deny` for a gate error). */
	readonly mode: Mode;
	readonly source: DecisionSource;
	/** Null when the call could not even be classified (a gate error, a forwarded request that lies). */
	readonly action: ClassifiedAction | null;
	/** For a blocked call: the text the model receives. For an allowed one: a short account. */
	readonly reason: string;
	readonly chain: readonly ChainStep[];
	/** The parked request, for `pending`. */
	readonly requestId?: string;
	/** For a call that asked: why the policy asked, naming the part that asked (kept in the audit line). */
	readonly why?: string;
	readonly step: PipelineStep;
	/** What the terminal authorizer answered, when it decided (its scope and grants go back to a child). */
	readonly terminal?: TerminalDecision;
}

/** One decided ask: its outcome, who asked, and the policy it was decided under (null if none could be read). */
export interface Decided {
	readonly outcome: GateOutcome;
	readonly origin: Origin;
	readonly policy: EffectivePolicy | null;
}

/**
 * One session's pipeline. Built at session start; the collaborators arrive once the bash grammar has loaded, so
 * the first ask may wait for them.
 */
export class GatePipeline {
	private readonly deps: PromiseLike<GateDeps>;
	private readonly origin: Origin;

	/** `origin`: who this session is, the asker of its own calls. */
	constructor(deps: PromiseLike<GateDeps>, origin: Origin) {
		this.deps = deps;
		this.origin = origin;
	}

	/** Decide one ask. Never throws: a failure anywhere is a gate error, which blocks. */
	async run(request: GateRequest): Promise<Decided> {
		let policy: EffectivePolicy | null = null;
		let origin = this.origin;
		try {
			// What runs must be what is decided: pi executes this very object, so nothing may change it from here
			// on — not an authorizer link or anything else while a dialog waits, not a handler registered after ours.
			if (request.kind === "tool_call") deepFreeze(request.call.input);
			origin = originOf(request, this.origin);
			const deps = await this.deps;
			policy = deps.policy();
			const outcome = await decideAsk(request, origin, deps, policy);
			return { outcome, origin, policy };
		} catch (error) {
			return { outcome: gateError(toolOf(request), error), origin, policy };
		}
	}
}

/** Added to a forwarded ask's why when the asker's own policy made it human-only: the dialog and audit say so. */
const ASKER_HUMAN_ONLY = "only a human may answer (the asking agent's own policy says so)";

/** The kind of ask as the policy and terminal steps see it: an ungated delegation is a tool call of its own kind. */
type AskKind = "tool_call" | "user_bash" | "forwarded" | "delegation";

/**
 * What the policy step hands on when it neither denies nor allows: the question the terminal will be asked
 * (always in mode `ask`), and how the links and the outcome treat it.
 */
interface AskPlan
	extends Pick<AskCommon, "why" | "askingParts" | "suggestions" | "unanswered" | "timeoutMs" | "signal"> {
	readonly kind: AskKind;
	/** A guarded path or an ungated delegation: only a human answers, no authorizer link is asked. */
	readonly humanOnly: boolean;
	/** An ask rule (or a guard) forced the ask: no permission mode answers it instead of a human. */
	readonly askRule: boolean;
	/**
	 * For a forwarded ask: when the child stops waiting (epoch ms). The dialog's wait is cut to it when the
	 * terminal is asked — after the links, which may have used some of the time.
	 */
	readonly deadline?: number;
	/** Steps recorded before the links (the delegation guard's). */
	readonly chain: readonly ChainStep[];
	/** For a forwarded ask: what only such an ask carries to the terminal. */
	readonly forwarded?: ForwardedOnly;
	/**
	 * For a delegation a settings change can gate: that change, offered as "Add the gate to <file> and continue"
	 * and written as it was planned, only over the text it was worked out from.
	 */
	readonly settingsFix?: PlannedChange;
	/** For a delegation: the launcher's verdict, for the reason the model reads. */
	readonly blockReason?: (source: DecisionSource, userReason?: string) => string;
}

type PolicyStep =
	| { readonly settled: Omit<GateOutcome, "action" | "step" | "chain"> }
	| { readonly plan: AskPlan }
	/** A parked approval was used up by another call between finding and consuming it: decide again. */
	| { readonly again: true };

async function decideAsk(
	request: GateRequest,
	origin: Origin,
	deps: GateDeps,
	policy: EffectivePolicy,
): Promise<GateOutcome> {
	// 1. classify
	const judged = classify(request, deps, policy);
	if ("refused" in judged) {
		const source: DecisionSource = { kind: "unavailable", reason: capSourceText(judged.refused) };
		return {
			outcome: "deny",
			mode: "deny",
			source,
			action: null,
			reason: judged.refused,
			chain: [],
			step: "classify",
		};
	}
	const { action } = judged;
	const what = describeCall(action, toolOf(request));

	// 2. policy
	// A bash call that would run without a human, unsandboxed against the policy's wish (sandbox.required, or a
	// command the gate cannot rewrite into the sandbox), is for a human.
	const unsandboxed =
		request.kind === "tool_call" && request.call.tool === "bash"
			? await deps.sandboxMissing(policy.sandbox, request.call.input)
			: null;
	// A write or edit that pi would run with a tool other than the gate's: links could redirect it (adr/0014).
	const uncontainedTool = request.kind === "tool_call" ? deps.uncontainedFileTool(request.call.tool) : null;
	const step = policyStep(request, action, origin, what, deps, policy, unsandboxed, uncontainedTool);
	if ("again" in step) return decideAsk(request, origin, deps, policy);
	// The human's own commands (`!`) are theirs: no permission mode applies to them.
	const mode = request.kind === "user_bash" ? "default" : deps.permissionMode(policy);
	const contained =
		(mode === "trusted" || mode === "sandboxed") &&
		"plan" in step &&
		request.kind === "tool_call" &&
		request.call.tool === "bash" &&
		(await deps.sandboxContains(policy.sandbox, action.parts));
	const moded = modeOutcome(mode, action, step, what, contained);
	if (moded && "outcome" in moded) return moded;
	if ("settled" in step) return { ...step.settled, action, chain: [], step: "policy" };
	// A mode that could have answered but did not says why in the dialog and the audit line.
	const plan = moded ? { ...step.plan, why: `${step.plan.why}; ${moded.note}` } : step.plan;

	// 3. links
	const links = plan.humanOnly
		? null
		: await runAuthorizerChain(
				policy.authorizerChain,
				{
					tool: action.tool,
					input: action.input,
					cwd: action.cwd,
					tier: action.tier,
					parts: action.parts,
					actionHash: action.hash,
					preview: action.preview,
					origin,
					sessionId: deps.sessionId,
					why: plan.why,
					forwarded: plan.kind === "forwarded",
					policy: deps.policyQuery,
				},
				{ lookup: deps.lookupLink },
			);
	const chain = [...plan.chain, ...(links?.steps ?? [])];
	const asked = { mode: "ask", action, chain, why: plan.why } as const;
	if (links?.decided) {
		const { link, verdict, reason } = links.decided;
		const source: DecisionSource = { kind: "authorizer", link, verdict, ...(reason ? { reason } : {}) };
		return verdict === "allow"
			? { ...asked, outcome: "allow", source, reason: `allowed by authorizer ${link}`, step: "links" }
			: {
					...asked,
					outcome: "deny",
					source,
					reason: askDenyReason(what, action.tier, source),
					step: "links",
				};
	}

	// 4. terminal
	const { why, askingParts, suggestions, unanswered, signal, forwarded, deadline, settingsFix } = plan;
	const timeoutMs =
		deadline === undefined ? plan.timeoutMs : Math.max(1, Math.min(plan.timeoutMs, deadline - Date.now()));
	const common: AskCommon = {
		why,
		humanOnly: plan.humanOnly,
		askingParts,
		suggestions,
		unanswered,
		timeoutMs,
		...(signal ? { signal } : {}),
		...(settingsFix ? { fixAndContinue: { file: settingsFix.change.file } } : {}),
		action,
		origin,
		sessionId: deps.sessionId,
		deferExpiryMs: policy.deferExpiryHours * 3600_000,
		savable: savableRules(plan, policy),
	};
	const ask: Ask = forwarded ? { ...common, ...forwarded } : { ...common, kind: "own" };
	if (mode === "dont-ask") {
		const refused = dontAskRefusal(what);
		return { ...asked, outcome: "deny", source: refused.source, reason: refused.reason, step: "terminal" };
	}
	const terminal = await deps.terminal().decide(ask);
	if (terminal.outcome !== "parked" && terminal.save && answerStands(request, terminal)) {
		await deps.saveRules(terminal.save, action.cwd);
	}
	const decided = { ...asked, step: "terminal", terminal } as const;
	switch (terminal.outcome) {
		case "allow":
			if (terminal.fix) {
				// Fail closed: only a fix that was offered, written, and now gates the children lets the call run.
				const fixed =
					request.kind === "tool_call" && settingsFix
						? deps.fixDelegation(request.call, settingsFix)
						: { gated: false as const, reason: "no settings fix was offered for this call" };
				if (!fixed.gated) {
					const source: DecisionSource = { kind: "gate_error", reason: capSourceText(fixed.reason) };
					return {
						...decided,
						outcome: "deny",
						source,
						reason: `Blocked by pi-permission-hub: the user chose to add the gate to the settings and continue, but ${fixed.reason}, so ${what} was blocked. Do not retry the delegation; tell the user.`,
					};
				}
				return {
					...decided,
					outcome: "allow",
					source: terminal.source,
					reason: `allowed at the terminal authorizer after the gate was added to ${fixed.file}: the subagent runs with permission checks (${fixed.via})`,
				};
			}
			if (keepsGrants(plan.kind, terminal) && answerStands(request, terminal))
				deps.grants.add(terminal.grants);
			return {
				...decided,
				outcome: "allow",
				source: terminal.source,
				reason:
					plan.kind === "delegation"
						? "allowed at the terminal authorizer, though the subagent runs without permission checks"
						: "allowed at the terminal authorizer",
			};
		case "deny":
			return {
				...decided,
				outcome: "deny",
				source: terminal.source,
				reason: (plan.blockReason ?? defaultBlockReason(what, action))(terminal.source, terminal.userReason),
			};
		case "parked":
			// A delegation's ask is never parked (nobody approving it later fixes the configuration); were it to
			// come back parked, it is refused like any unanswered one.
			if (plan.blockReason) {
				return {
					...decided,
					outcome: "deny",
					source: terminal.source,
					reason: plan.blockReason(terminal.source),
				};
			}
			return {
				...decided,
				outcome: "pending",
				source: terminal.source,
				reason: parkedReason(what, terminal.requestId),
				requestId: terminal.requestId,
			};
	}
}

/**
 * The outcome the session's permission mode gives instead of the policy step's; `{ note }` when it leaves the
 * ask to a human but says why; null when it changes nothing.
 */
function modeOutcome(
	mode: PermissionMode,
	action: ClassifiedAction,
	step: Exclude<PolicyStep, { readonly again: true }>,
	what: string,
	contained: boolean,
): GateOutcome | { readonly note: string } | null {
	if (mode === "default") return null;
	const verdict: PolicyVerdict =
		"settled" in step
			? { kind: "settled", outcome: step.settled.outcome }
			: {
					kind: "ask",
					humanOnly: step.plan.humanOnly,
					askRule: step.plan.askRule,
					asking: step.plan.askingParts.map(({ part, tier }) => askingEffect(action.tool, part, tier)),
					contained,
				};
	const effect = permissionModeEffect(mode, action, verdict, what);
	if (effect.kind === "none") return effect.note === undefined ? null : { note: effect.note };
	const { source, reason } = effect;
	const why = "plan" in step ? { why: step.plan.why } : {};
	return effect.kind === "allow"
		? { outcome: "allow", mode: "auto", source, reason, action, chain: [], step: "policy", ...why }
		: { outcome: "deny", mode: "deny", source, reason, action, chain: [], step: "policy", ...why };
}

/**
 * Which of the suggested patterns a human may save as rules (adr/0018): none for a guarded path, a privileged
 * part or an ask only a human may answer; an allow only when every asking part is within the grant ceiling
 * (above it, an allow rule would not apply anyway).
 */
function savableRules(plan: AskPlan, policy: EffectivePolicy): AskCommon["savable"] {
	const parts = plan.askingParts;
	if (
		!policy.allowSavedRules ||
		plan.suggestions.length === 0 ||
		plan.humanOnly ||
		parts.some(({ part, tier }) => tier === "privileged" || part.guard !== undefined)
	) {
		return { allow: false, deny: false };
	}
	return { allow: parts.every(({ tier }) => withinCeiling(tier, policy.grantCeiling.tier)), deny: true };
}

/**
 * Grants a human gave with an answer stay in this session — except those for the child that asked, which go back
 * to it with the answer; a delegation offers none.
 */
function keepsGrants(kind: AskKind, terminal: Extract<TerminalDecision, { outcome: "allow" }>): boolean {
	if (kind === "delegation" || terminal.grants.length === 0) return false;
	return !(kind === "forwarded" && terminal.scope === "subagent");
}

/**
 * Whether an answer's grants and saved rules may take effect: a parked ask's answer only once the parked store
 * took it, since one it refuses counts for nothing (adr/0006). Called only for an answer that carries some.
 */
function answerStands(
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

function defaultBlockReason(what: string, action: ClassifiedAction) {
	return (source: DecisionSource, userReason?: string) =>
		askDenyReason(what, action.tier, source, userReason);
}

function classify(
	request: GateRequest,
	deps: GateDeps,
	policy: EffectivePolicy,
): { readonly action: ClassifiedAction } | { readonly refused: string } {
	switch (request.kind) {
		case "tool_call":
			return { action: deps.classify(request.call, policy) };
		case "user_bash":
			return {
				action: deps.classify(
					{ tool: "bash", input: { command: request.command }, cwd: request.cwd },
					policy,
				),
			};
		case "forwarded":
			return judgeRequest(request.served.request, deps.classify, policy);
	}
}

/**
 * Deny rules first for every kind; then what may allow without asking, which depends on who asks:
 * - this session's own call: the whole policy (rules, grants, tier modes, a parked approval) — unless the call
 *   delegates to children that would run ungated, which only a human may accept (adr/0011);
 * - a command the human typed: anything not denied (nobody is asked about their own command);
 * - a child's ask: only this session's whole-tree grants and a parked approval for this exact action — the child
 *   asked because its own, possibly stricter, policy said so, so this session's allow rules and tier modes do
 *   not approve it (adr/0006).
 */
function policyStep(
	request: GateRequest,
	action: ClassifiedAction,
	origin: Origin,
	what: string,
	deps: GateDeps,
	policy: EffectivePolicy,
	unsandboxed: string | null,
	/** Why the file tool pi would run is not the gate's contained one: then a human decides (adr/0014). */
	uncontainedTool: string | null,
): PolicyStep {
	const uncontained = unsandboxed ?? uncontainedTool;
	const timeoutMs = policy.dialogTimeoutSeconds * 1000;
	const unanswered = policy.unanswered ?? deps.defaultUnanswered;
	switch (request.kind) {
		case "user_bash": {
			const denied = findDeny(action, policy, origin);
			if (denied) {
				const said = what.replace("this bash call", "this command");
				const reason = policyDenyReason(said, denied);
				return { settled: { outcome: "deny", mode: "deny", source: sourceOfBasis(denied.basis), reason } };
			}
			const source = userOnce("typed", "allow");
			return { settled: { outcome: "allow", mode: "auto", source, reason: "typed by the user" } };
		}
		case "tool_call": {
			const approval = deps.parked.find(action.hash);
			const decision = decide(action, policy, {
				origin,
				grants: deps.grants.list(),
				parkedApproval: approval,
			});
			if (decision.mode === "deny") {
				const reason = policyDenyReason(what, decision);
				return { settled: { outcome: "deny", mode: "deny", source: sourceOfBasis(decision.basis), reason } };
			}
			// Children that would run ungated: whatever else would allow this call, a human must accept that first.
			const delegation = deps.delegation(request.call);
			if (delegation && !delegation.verdict.gated) {
				const { verdict } = delegation;
				return {
					plan: {
						kind: "delegation",
						why: ungatedDelegationWhy(verdict, delegation.uncontained),
						humanOnly: true,
						askRule: false,
						// The audit keeps why the call asked, whatever the answer: the guard's step in the chain.
						chain: [
							{ link: DELEGATION_GUARD_STEP, result: "defer", reason: capSourceText(verdict.why), ms: 0 },
						],
						askingParts: action.parts.map((part) => ({ part, tier: part.tier })),
						suggestions: [],
						// Never parked; refused at once only when the operator wants every ask refused that way.
						unanswered: policy.unanswered === "deny" ? "deny" : "wait",
						timeoutMs,
						...(request.signal ? { signal: request.signal } : {}),
						blockReason: (source, userReason) =>
							ungatedDelegationBlockReason(what, action.tier, verdict, source, userReason),
						...(verdict.fix.automatic ? { settingsFix: verdict.fix.automatic } : {}),
					},
				};
			}
			// Only a human's approval of this very action may run it unsandboxed, parked or not (adr/0017).
			const humanApproved =
				decision.basis.kind === "parked_approval" && humanDecided(decision.basis.approvedBy);
			if (decision.mode === "auto" && uncontained !== null && !humanApproved) {
				const askingParts = action.parts.map((part) => ({ part, tier: part.tier }));
				return {
					plan: {
						kind: "tool_call",
						why: capSourceText(uncontained),
						humanOnly: true,
						askRule: false,
						chain: [],
						askingParts,
						suggestions: [],
						unanswered,
						timeoutMs,
						...(request.signal ? { signal: request.signal } : {}),
					},
				};
			}
			if (decision.mode === "auto") {
				if (decision.basis.kind === "parked_approval" && approval) {
					if (!deps.parked.consume(approval)) return { again: true };
					const { requestId, approvedBy } = approval;
					const source = { kind: "parked_approval", requestId, approvedBy } as const;
					return {
						settled: { outcome: "allow", mode: "auto", source, reason: `approved request ${requestId}` },
					};
				}
				const source = sourceOfBasis(decision.basis);
				return { settled: { outcome: "allow", mode: "auto", source, reason: "allowed by policy" } };
			}
			const askingParts = decision.askingParts.map((p) => ({ part: p.part, tier: p.tier }));
			return {
				plan: {
					kind: "tool_call",
					why: capSourceText(
						uncontainedTool === null
							? describeAskWhy(decision)
							: `${describeAskWhy(decision)}; ${uncontainedTool}`,
					),
					// A guarded path is for a human alone: no authorizer link is asked (adr/0014). Nor when a link's
					// allow would run the command unsandboxed against the policy's wish, or uncontained; and no grant
					// is offered that would only make the next such call ask again.
					humanOnly: decision.humanOnly || uncontained !== null,
					askRule: !decision.grantable,
					chain: [],
					askingParts,
					suggestions:
						decision.grantable && uncontainedTool === null ? suggestGrants(action.tool, askingParts) : [],
					unanswered,
					timeoutMs,
					...(request.signal ? { signal: request.signal } : {}),
				},
			};
		}
		case "forwarded": {
			const { request: forwarded, signal } = request.served;
			const denied = findDeny(action, policy, origin);
			if (denied) {
				const reason = policyDenyReason(what, denied);
				return { settled: { outcome: "deny", mode: "deny", source: sourceOfBasis(denied.basis), reason } };
			}
			// The child's own policy (a file this session never reads) may say only a human answers: that only makes
			// the ask stricter, so it is trusted as sent; its absence relaxes nothing decided below (adr/0006).
			const askerHumanOnly = forwarded.humanOnly === true;
			const why = askerHumanOnly ? `${forwarded.why}; ${ASKER_HUMAN_ONLY}` : forwarded.why;
			const asked = { mode: "ask", why } as const;
			const treeGrant = (current: EffectivePolicy) =>
				askerHumanOnly
					? null
					: findCoveringGrant(
							action,
							deps.grants.list().filter((g) => g.scope === "tree"),
							current,
							origin,
						);
			const grant = treeGrant(policy);
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
						keepGrants: (decision) => {
							const tree = decision.grants.filter((g) => g.scope === "tree");
							if (tree.length > 0 && answerStands(request, decision)) deps.grants.add(tree);
						},
						settledElsewhere: () => {
							const covering = treeGrant(deps.policy());
							return covering
								? { outcome: "allow", source: treeGrantSource(covering), scope: "once", grants: [] }
								: null;
						},
					},
				},
			};
		}
	}
}

/**
 * Who asks: this session (its model or its human), or for a forwarded ask the child — a live child is a subagent
 * whatever its request claims, while a request parked in this user's own private store keeps the origin the
 * parking session recorded (its own run, or the child it forwarded for).
 */
function originOf(request: GateRequest, own: Origin): Origin {
	if (request.kind !== "forwarded") return own;
	const { request: forwarded } = request.served;
	return request.reoffered && forwarded.origin ? forwarded.origin : originOfRequest(forwarded, request.shown);
}

function toolOf(request: GateRequest): string {
	switch (request.kind) {
		case "tool_call":
			return request.call.tool;
		case "user_bash":
			return "bash";
		case "forwarded":
			return request.served.request.tool;
	}
}

function gateError(tool: string, error: unknown): GateOutcome {
	const message = errorMessage(error);
	return {
		outcome: "deny",
		mode: "deny",
		source: { kind: "gate_error", reason: message.slice(0, 2000) },
		action: null,
		reason: gateErrorReason(`this ${tool} call`, message),
		chain: [],
		step: "error",
	};
}
