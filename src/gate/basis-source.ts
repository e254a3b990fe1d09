import type { AskDecision, AutoDecision, DenyDecision } from "../policy/decision.ts";
import type { RuleOrigin as PolicyRuleOrigin } from "../policy/policy-rule.ts";
import { capSourceText, type DecisionSource, type RuleOrigin } from "../provenance/decision-source.ts";

function origin(o: PolicyRuleOrigin): RuleOrigin {
	return { file: o.file, jsonPath: o.jsonPath, ...(o.line > 0 ? { line: o.line } : {}) };
}

/** The DecisionSource a policy decision records: the rule, tier setting, grant or approval that decided. */
export function sourceOfBasis(basis: (DenyDecision | AskDecision | AutoDecision)["basis"]): DecisionSource {
	switch (basis.kind) {
		case "rule":
		case "tier": {
			const r = basis.rule;
			return {
				kind: "rule",
				surface: r.surface,
				pattern: r.pattern,
				action: r.action,
				origin: origin(r.origin),
				...(r.reason ? { reason: r.reason } : {}),
			};
		}
		case "agent_rule": {
			const m = basis.matcher;
			return {
				kind: "rule",
				surface: "agent",
				pattern: m.name === null ? m.kind : `${m.kind}:${m.name}`,
				action: "deny",
				origin: origin(m.origin),
			};
		}
		case "config_error":
			// The message quotes the file's own text (an unknown key, say): unbounded, so capped for the reader.
			return { kind: "gate_error", reason: capSourceText(basis.error.message) };
		case "session_grant": {
			const g = basis.grant;
			return { kind: "session_grant", grantId: g.id, surface: g.surface, pattern: g.pattern, scope: g.scope };
		}
		case "parked_approval":
			return { kind: "parked_approval", requestId: basis.requestId, approvedVia: basis.approvedVia };
	}
}

/** Why the policy asks, in words for the dialog and the audit. */
export function describeAskWhy(decision: AskDecision): string {
	const { basis } = decision;
	const r = basis.rule;
	const where = r.origin.file === "built-in" ? "built-in default" : `${r.origin.file} ${r.origin.jsonPath}`;
	const base =
		basis.kind === "rule"
			? `ask rule ${r.surface} "${r.pattern}" (${where})`
			: `the ${basis.part.tier} tier asks (${where})`;
	return decision.notes.length > 0 ? `${base}; ${decision.notes.join("; ")}` : base;
}
