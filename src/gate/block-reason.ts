import type { ClassifiedAction } from "../classify/action.ts";
import type { ChildGateVerdict } from "../launchers/child-gate.ts";
import { configErrorBlockReason } from "../policy/config-error.ts";
import type { DenyDecision } from "../policy/decide.ts";
import type { ConfigLocation } from "../policy/policy-rule.ts";
import { capSourceText, type DecisionSource, innermostSource } from "../provenance/decision-source.ts";
import { describeDecisionSource } from "../provenance/describe-decision-source.ts";

const PREVIEW_IN_REASON = 300;
const DO_NOT_RETRY = "Do not retry this action or an equivalent one; tell the user what you wanted to do.";

/** `this bash call (rm -rf build)`: what the model tried, short enough to read in a tool result. */
export function describeCall(action: ClassifiedAction | null, tool: string): string {
	if (!action) return `this ${tool} call`;
	const preview =
		action.preview.length > PREVIEW_IN_REASON
			? `${action.preview.slice(0, PREVIEW_IN_REASON)}…`
			: action.preview;
	return `this ${tool} call (${preview})`;
}

function where(origin: ConfigLocation): string {
	if (origin.file === "built-in") return "the built-in defaults";
	const line = origin.line > 0 ? `, line ${origin.line}` : "";
	return `${origin.file} (${origin.jsonPath}${line})`;
}

/** The message for a call the policy denied outright. */
export function policyDenyReason(what: string, decision: DenyDecision): string {
	const { basis } = decision;
	switch (basis.kind) {
		case "config_error":
			return `Blocked by pi-permission-hub: ${capSourceText(configErrorBlockReason(basis.error))}. ${DO_NOT_RETRY}`;
		case "agent_rule": {
			const m = basis.matcher;
			return `Blocked by pi-permission-hub: ${what} comes from ${m.kind}${m.name ? ` "${m.name}"` : ""}, which agentRules.deny in ${where(m.origin)} forbids. ${DO_NOT_RETRY}`;
		}
		case "tier": {
			const r = basis.rule;
			return `Blocked by pi-permission-hub: ${what} is in the ${basis.part.tier} tier, which is set to deny in ${where(r.origin)}. ${DO_NOT_RETRY}`;
		}
		case "rule": {
			const r = basis.rule;
			const reason = r.reason ? ` Reason: ${r.reason}.` : "";
			return `Blocked by pi-permission-hub: ${what} matches the deny rule ${r.surface} "${r.pattern}" in ${where(r.origin)}.${reason} ${DO_NOT_RETRY}`;
		}
		case "guard":
			return `Blocked by pi-permission-hub: ${what} is refused: ${basis.guard.reason}. ${DO_NOT_RETRY}`;
	}
}

/** The message for a call blocked after an ask: it names who decided and never calls "nobody" a user. */
export function askDenyReason(
	what: string,
	tier: string,
	source: DecisionSource,
	userReason?: string,
): string {
	const decisive = innermostSource(source).source;
	switch (decisive?.kind) {
		case "user":
			return `The user denied ${what}.${userReason ? ` Their reason: "${capSourceText(userReason)}".` : ""} Do not retry it or an equivalent; ask the user how to proceed.`;
		case "authorizer":
			return `Blocked by pi-permission-hub: the authorizer "${decisive.link}" denied ${what}${decisive.reason ? `: ${decisive.reason}` : ""}. ${DO_NOT_RETRY}`;
		case "unavailable":
			return `Blocked by pi-permission-hub: ${what} needs approval (tier ${tier}), but no one could be asked: ${decisive.reason}. This is not a user denial. ${DO_NOT_RETRY}`;
		case "rule": {
			const hop = source.kind === "forwarded" ? "the parent session's" : "the";
			const why = decisive.reason ? ` Reason: ${decisive.reason}.` : "";
			return `Blocked by pi-permission-hub: ${what} matches ${hop} ${decisive.action} rule ${decisive.surface} "${decisive.pattern}" in ${decisive.origin.file}.${why} ${DO_NOT_RETRY}`;
		}
		default:
			return `Blocked by pi-permission-hub (${describeDecisionSource(source)}). ${DO_NOT_RETRY}`;
	}
}

export function parkedReason(what: string, requestId: string): string {
	return `Blocked by pi-permission-hub: ${what} needs approval and is pending approval ${requestId}. Nobody has answered yet; this is not a denial. Once the user approves it (in the root session or with "pi-permission-hub approve ${requestId}"), exactly this action may run on a later attempt. Do not retry before the user says it was approved.`;
}

/** Error texts are capped: an exception message has no bound, and the reason goes to the model and the audit. */
export function gateErrorReason(what: string, error: string): string {
	return `Blocked by pi-permission-hub: the permission check for ${what} failed, so the call was blocked (fail closed): ${capSourceText(error)}. ${DO_NOT_RETRY}`;
}

/** For an allowed call whose audit line could not be written: it does not run (adr/0005). */
export function auditFailedReason(what: string, error: string): string {
	return `Blocked by pi-permission-hub: ${what} was allowed, but its audit line could not be written (${capSourceText(error)}), and no call runs without one (fail closed). Tell the user; do not retry until they say the audit log is fixed.`;
}

/** A forwarded chain ends in the source of the hop that actually decided. */

type Ungated = Extract<ChildGateVerdict, { gated: false }>;

/** The name under which the guard's step appears in the audit's chain. */
export const DELEGATION_GUARD_STEP = "pi-permission-hub:delegation-guard";

/** The dialog's "Why": what would happen, and the one change that prevents it. */
export function ungatedDelegationWhy(verdict: Ungated, uncontained: string | null = null): string {
	const reach = uncontained === null ? "" : ` Besides, ${uncontained}`;
	return capSourceText(
		`the subagent would run without permission checks: ${verdict.why}.${reach} Allow only if you accept that. To gate subagents, ${verdict.fix.text}.`,
	);
}

/** What the model reads when the delegation was blocked. */
export function ungatedDelegationBlockReason(
	what: string,
	tier: string,
	verdict: Ungated,
	source: DecisionSource,
	userReason?: string,
): string {
	const fix = `To fix it, ${verdict.fix.text}.`;
	const decisive = innermostSource(source).source;
	if (decisive?.kind === "unavailable") {
		return `Blocked by pi-permission-hub: ${what} would start a subagent that runs without permission checks (${verdict.why}), and no one could be asked to accept that: ${decisive.reason}. This is a configuration problem, not a denial of the task. ${fix} Do not retry the delegation; tell the user about this settings change.`;
	}
	return `${askDenyReason(what, tier, source, userReason)} The subagent would have run without permission checks (${verdict.why}). ${fix}`;
}
