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
import { deepFreeze, runAuthorizerChain } from "../authority/run-authorizer-chain.ts";
import type { Ask, AskCommon } from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction } from "../classify/action.ts";
import type { Origin } from "../origin/origin.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { capSourceText, type DecisionSource } from "../provenance/decision-source.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { keepsGrants, type PolicyContext, type PolicyStep, savableRules } from "./ask-plan.ts";
import { askDenyReason, describeCall, gateErrorReason, parkedReason } from "./block-reason.ts";
import { answerStands, forwardedStep, judgeRequest, originOfRequest } from "./forwarded-request.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { Decided, GateOutcome, GateRequest } from "./gate-outcome.ts";
import { ownCallStep } from "./own-call.ts";
import {
	askingEffect,
	dontAskRefusal,
	type PolicyVerdict,
	permissionModeEffect,
} from "./permission-mode-step.ts";
import { typedCommandCall, typedCommandStep } from "./typed-command.ts";

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
		};
	}
	const { action } = judged;
	const what = describeCall(action, toolOf(request));

	// 2. policy
	const step = await policyStep(request, {
		action,
		origin,
		what,
		deps,
		policy,
		timeoutMs: policy.dialogTimeoutSeconds * 1000,
		unanswered: policy.unanswered ?? deps.defaultUnanswered,
	});
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
	if ("settled" in step) return { ...step.settled, action, chain: [] };
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
			? { ...asked, outcome: "allow", source, reason: `allowed by authorizer ${link}` }
			: {
					...asked,
					outcome: "deny",
					source,
					reason: askDenyReason(what, action.tier, source),
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
		return { ...asked, outcome: "deny", source: refused.source, reason: refused.reason };
	}
	const terminal = await deps.terminal().decide(ask);
	if (terminal.outcome !== "parked" && terminal.save && answerStands(request, terminal)) {
		await deps.saveRules(terminal.save, action.cwd);
	}
	const decided = { ...asked, terminal } as const;
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
		? { outcome: "allow", mode: "auto", source, reason, action, chain: [], ...why }
		: { outcome: "deny", mode: "deny", source, reason, action, chain: [], ...why };
}

/**
 * Deny rules first for every kind; then what may allow without asking, which depends on who asks (adr/0002), each
 * judged next to what it judges: this session's own call by the whole policy (`own-call.ts`), a command the
 * human typed by nothing but the deny rules (`typed-command.ts`), a child's ask by this session's whole-tree
 * grants and a parked approval alone (`forwarded-request.ts`).
 */
async function policyStep(request: GateRequest, context: PolicyContext): Promise<PolicyStep> {
	switch (request.kind) {
		case "user_bash":
			return typedCommandStep(context);
		case "forwarded":
			return forwardedStep(request, context);
		case "tool_call": {
			const { deps, policy } = context;
			const { call, signal } = request;
			// A bash call that would run without a human, unsandboxed against the policy's wish (sandbox.required,
			// or a command the gate cannot rewrite into the sandbox), is for a human.
			const unsandboxed = call.tool === "bash" ? await deps.sandboxMissing(policy.sandbox, call.input) : null;
			// A write or edit that pi would run with a tool other than the gate's: links could redirect it (adr/0014).
			const uncontainedTool = deps.uncontainedFileTool(call.tool);
			return ownCallStep({ call, ...(signal ? { signal } : {}), unsandboxed, uncontainedTool }, context);
		}
	}
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
			return { action: deps.classify(typedCommandCall(request.command, request.cwd), policy) };
		case "forwarded":
			return judgeRequest(request.served.request, deps.classify, policy);
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
	};
}
