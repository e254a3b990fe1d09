import type { ActionPart } from "../classify/action.ts";
import { redactSecrets } from "../classify/preview.ts";
import type { AskDecision, AutoDecision, DenyDecision } from "../policy/decide.ts";
import type { ConfigLocation } from "../policy/policy-rule.ts";
import { capSourceText, type DecisionSource, type RuleLocation } from "../provenance/decision-source.ts";

function ruleLocation(o: ConfigLocation): RuleLocation {
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
				origin: ruleLocation(r.origin),
				...(r.reason ? { reason: r.reason } : {}),
				...(r.surface !== "tier" && r.saved !== undefined ? { saved: r.saved } : {}),
			};
		}
		case "agent_rule": {
			const m = basis.matcher;
			return {
				kind: "rule",
				surface: "agent",
				pattern: m.name === null ? m.kind : `${m.kind}:${m.name}`,
				action: "deny",
				origin: ruleLocation(m.origin),
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
			return { kind: "parked_approval", requestId: basis.requestId, approvedBy: basis.approvedBy };
		case "guard":
			return {
				kind: "rule",
				surface: "guard",
				pattern: describeAskingPart(basis.part.part),
				action: basis.guard.kind === "refuse" ? "deny" : "ask",
				origin: { file: "built-in", jsonPath: "guarded paths" },
				reason: capSourceText(basis.guard.reason),
			};
	}
}

/** Why the policy asks, in words for the dialog and the audit: the rule or tier, and the part that asked. */
export function describeAskWhy(decision: AskDecision): string {
	const { basis } = decision;
	let rule: string;
	if (basis.kind === "guard") {
		rule = `only a human may allow this (${basis.guard.reason})`;
	} else {
		const r = basis.rule;
		const where = r.origin.file === "built-in" ? "built-in default" : `${r.origin.file} ${r.origin.jsonPath}`;
		rule =
			basis.kind === "rule"
				? `ask rule ${r.surface} "${r.pattern}" (${where})`
				: `the ${basis.part.tier} tier asks (${where})`;
	}
	const others = decision.askingParts.filter((p) => p.index !== basis.part.index);
	const shown = others.slice(0, MORE_PARTS).map((p) => `${describeAskingPart(p.part)} (${p.tier})`);
	if (others.length > MORE_PARTS) shown.push(`${others.length - MORE_PARTS} more`);
	// A tier asks because of what the part is: say that too, not only the tier ("awk is not a known command").
	const described = describeAskingPart(basis.part.part);
	const because = basis.kind === "tier" ? partReason(basis.part.part, described) : "";
	const base = [
		`${rule} for: ${described}${because}`,
		...(shown.length > 0 ? [`also asking: ${shown.join(", ")}`] : []),
	].join("; ");
	return decision.notes.length > 0 ? `${base}; ${decision.notes.join("; ")}` : base;
}

/**
 * Why a command part has its tier, as ` — reason`, when the classifier says more than the tier: the word or
 * option that kept it from being a read (adr/0003). Empty for a part without a command (its paths say it), for
 * a table entry that only names the tier (`rm is destructive`) and for a reason `described` already shows.
 */
function partReason(part: ActionPart, described: string): string {
	if (part.command === undefined) return "";
	const reason = part.tierReason.replace(/^built-in: /, "");
	if (reason === "" || reason.endsWith(` is ${part.tier}`) || described.includes(reason)) return "";
	return ` — ${cut(redactSecrets(reason))}`;
}

/** Other asking parts named after the one that decided, at most. */
const MORE_PARTS = 3;
const PART_TEXT = 120;

/**
 * One part in words: its command (and the files it writes that its words do not show, such as a redirect's), or
 * the paths a part without a command writes or reads. A command of literal words shows each word quoted as the
 * shell would need it (`python3 -c 'import os; print(1)'` is one command, not two), its secrets redacted.
 */
export function describeAskingPart(part: ActionPart): string {
	const writes = part.paths.filter((touch) => touch.access === "write").map((touch) => touch.typed);
	if (part.command) {
		const hidden = writes.filter((typed) => !part.command?.argv.includes(typed));
		const words = part.command.literal ? part.command.argv.map(shellWord).join(" ") : part.command.text;
		const text = cut(redactSecrets(words));
		return hidden.length > 0 ? `${text} (writes ${cut(hidden.join(", "))})` : text;
	}
	if (writes.length > 0) return `writes ${cut(writes.join(", "))}`;
	const reads = part.paths.map((touch) => touch.typed);
	return reads.length > 0 ? `reads ${cut(reads.join(", "))}` : part.tierReason;
}

/** Characters a word can show bare: anything else is single-quoted. */
const BARE_WORD = /^[A-Za-z0-9_@%+=:,./~^-]+$/;

function shellWord(word: string): string {
	return BARE_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function cut(text: string): string {
	return text.length > PART_TEXT ? `${text.slice(0, PART_TEXT - 1)}…` : text;
}
