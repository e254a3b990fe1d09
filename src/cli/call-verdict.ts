/**
 * What the gate's policy step would do with one tool call, for `check`: the same classifier and the same
 * decision function as a session, with no grants, no parked approvals and no authorizer links yet.
 */
import type { ActionPart, ClassifiedAction, ToolCall } from "../classify/action.ts";
import { describeAskingPart, describeAskWhy, sourceOfBasis } from "../gate/basis-source.ts";
import type { Origin } from "../origin/origin.ts";
import { configErrorBlockReason } from "../policy/config-error.ts";
import { type Decision, decide } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { RuleOrigin } from "../policy/policy-rule.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";

export interface CallVerdict {
	readonly action: ClassifiedAction;
	readonly decision: Decision;
}

export type Classify = (call: ToolCall, policy: EffectivePolicy) => ClassifiedAction;

export function callVerdict(
	call: ToolCall,
	policy: EffectivePolicy,
	classify: Classify,
	origin: Origin,
): CallVerdict {
	const action = classify(call, policy);
	const decision = decide(action, policy, { origin, grants: [], parkedApproval: null });
	return { action, decision };
}

/** The basis in words: which rule, tier setting, guard, agent rule or config error decided. */
export function describeBasis(decision: Decision): string {
	const { basis } = decision;
	switch (basis.kind) {
		case "rule":
			return `${basis.rule.action} rule ${basis.rule.surface} "${basis.rule.pattern}" in ${where(basis.rule.origin)}`;
		case "tier":
			return `the ${basis.part.tier} tier is set to ${basis.rule.action} in ${where(basis.rule.origin)}`;
		case "guard":
			return basis.guard.kind === "refuse"
				? `refused by the gate's own guard: ${basis.guard.reason}`
				: `only a human may allow this: ${basis.guard.reason}`;
		case "agent_rule": {
			const m = basis.matcher;
			return `agentRules.deny ${m.kind}${m.name === null ? "" : `:${m.name}`} in ${where(m.origin)}`;
		}
		case "config_error":
			return configErrorBlockReason(basis.error);
		case "session_grant":
		case "parked_approval":
			// `check` passes neither grants nor approvals; named for completeness of the union.
			return basis.kind;
	}
}

function where(origin: RuleOrigin): string {
	if (origin.file === "built-in") return "the built-in defaults";
	return `${origin.file} (${origin.jsonPath}${origin.line > 0 ? `, line ${origin.line}` : ""})`;
}

/** Each part that is not `read`, with the reason the classifier gives (which word, which option, which path). */
export function notReadParts(action: ClassifiedAction): readonly ActionPart[] {
	return action.parts.filter((part) => part.tier !== "read");
}

export interface VerdictJson {
	readonly tool: string;
	readonly preview: string;
	readonly tier: string;
	readonly mode: Decision["mode"];
	readonly basis: {
		readonly kind: Decision["basis"]["kind"];
		readonly text: string;
		readonly source: DecisionSource;
	};
	/** Only a human may answer: no authorizer link, no grant (a guarded path). */
	readonly human_only: boolean;
	/** Whether "allow for the session" would stop it asking again. */
	readonly grantable: boolean;
	readonly asks_because: string | null;
	readonly parts: readonly {
		readonly text: string;
		readonly tier: string;
		readonly reason: string;
		/** The files it reads and writes, absolute (what path rules match). */
		readonly paths: readonly { readonly access: string; readonly path: string }[];
	}[];
	readonly not_read: readonly { readonly text: string; readonly reason: string }[];
	readonly notes: readonly string[];
	readonly hash: string;
}

export function verdictJson({ action, decision }: CallVerdict): VerdictJson {
	const ask = decision.mode === "ask" ? decision : null;
	return {
		tool: action.tool,
		preview: action.preview,
		tier: action.tier,
		mode: decision.mode,
		basis: {
			kind: decision.basis.kind,
			text: describeBasis(decision),
			source: sourceOfBasis(decision.basis),
		},
		human_only: ask?.humanOnly ?? false,
		grantable: ask?.grantable ?? false,
		asks_because: ask === null ? null : describeAskWhy(ask),
		parts: action.parts.map((part) => ({
			text: describeAskingPart(part),
			tier: part.tier,
			reason: part.tierReason,
			paths: part.paths.map((touch) => ({ access: touch.access, path: touch.absolute })),
		})),
		not_read: notReadParts(action).map((part) => ({
			text: describeAskingPart(part),
			reason: part.tierReason,
		})),
		notes: decision.notes,
		hash: action.hash,
	};
}

const MODE_WORDS: Readonly<Record<Decision["mode"], string>> = {
	auto: "runs without asking",
	ask: "asks first",
	deny: "is refused",
};

/** For people: the answer on the first line, then the basis and every part that is not read. */
export function verdictText(verdict: CallVerdict): string[] {
	const json = verdictJson(verdict);
	const lines = [
		`${json.tool} ${json.preview}: ${MODE_WORDS[json.mode]} (${json.mode}), tier ${json.tier}`,
		`  basis: ${json.basis.text}`,
	];
	if (json.human_only) lines.push("  only a human may answer: no authorizer link, and no grant covers it");
	for (const part of json.not_read) lines.push(`  not read: ${part.text}: ${part.reason}`);
	for (const note of json.notes) lines.push(`  note: ${note}`);
	return lines;
}
