import { visibleText } from "../authority/visible-text.ts";
import type { Origin } from "../origin/origin.ts";
import { originLabel } from "../origin/origin.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { SessionGrant } from "../policy/grant-coverage.ts";
import type { ConfigLocation } from "../policy/policy-rule.ts";
import type { SavedRuleRef } from "../policy/saved-rules.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import { describeDecisionSource } from "../provenance/describe-decision-source.ts";
import { describeSandbox, type SandboxState } from "../sandbox/sandbox-state.ts";
import { PERMISSION_MODE_MEANINGS, type PermissionMode } from "../vocabulary/permission-mode.ts";
import { TIERS } from "../vocabulary/tier.ts";

export interface RecentDecision {
	readonly time: string;
	readonly tool: string;
	readonly preview: string;
	readonly outcome: "allow" | "deny" | "pending";
	readonly source: DecisionSource;
	readonly origin: Origin;
}

export interface ServedChild {
	readonly label: string;
	readonly where: string;
}

/** What `/permissions` shows, gathered from the live session. */
export interface PermissionsSnapshot {
	readonly sessionId: string;
	readonly origin: Origin;
	/** How this session reaches a human: its own UI, a parent (and how it was found), or nobody. */
	readonly reach: string;
	/** The inbox this session serves for its children, if any. */
	readonly inbox: string | null;
	readonly policy: EffectivePolicy;
	readonly links: readonly { readonly name: string; readonly registered: boolean }[];
	readonly pending: readonly string[];
	/** This project's parked requests with an answer file this version never uses, each with why. */
	readonly parkedUnreadable: readonly string[];
	readonly children: readonly ServedChild[];
	readonly recent: readonly RecentDecision[];
	readonly grants: readonly SessionGrant[];
	readonly sandbox: SandboxState;
	/** Why the write or edit tool pi runs is not the gate's contained one (its calls ask), or null when it is. */
	readonly uncontainedFileTools: string | null;
	readonly permissionMode: PermissionMode;
}

export interface ReportLine {
	readonly text: string;
	/** Set on a session-grant line: choosing it offers to revoke that grant. */
	readonly grantId?: string;
	/** Set on a saved-rule line: choosing it offers to remove that rule from the user config. */
	readonly savedRule?: SavedRuleRef;
}

function where(origin: ConfigLocation): string {
	if (origin.file === "built-in") return "built-in";
	return `${origin.file} ${origin.jsonPath}${origin.line > 0 ? ` (line ${origin.line})` : ""}`;
}

/**
 * One line of the report as pi's list shows it: a rule's pattern and reason come from a project file, a recent
 * decision's preview from the model, and neither may drive the terminal or break the list (adr/0021).
 */
function shownLine(text: string): string {
	return visibleText(text).replace(/\n/g, " ⏎ ");
}

/** The report as lines: section headers start with `──`; grant lines carry their id for revoking. */
export function permissionsReport(s: PermissionsSnapshot): ReportLine[] {
	const lines: ReportLine[] = [];
	const section = (title: string): void => {
		lines.push({ text: `── ${title} ──` });
	};
	const add = (line: string, grantId?: string): void => {
		const text = shownLine(line);
		lines.push(grantId ? { text, grantId } : { text });
	};

	section("This session");
	add(`session ${s.sessionId} · origin ${originLabel(s.origin)}`);
	add(`reaches a human: ${s.reach}`);
	add(
		`permission mode: ${s.permissionMode} — ${PERMISSION_MODE_MEANINGS[s.permissionMode]} (/permissions mode to change)`,
	);
	if (s.inbox) add(`serves inbox ${s.inbox}`);

	section("Policy");
	for (const source of s.policy.sources) add(`${source.scope} config: ${source.file} (${source.state})`);
	for (const error of s.policy.configErrors)
		add(`ERROR ${error.message} — every call is blocked until it is fixed`);
	const ceiling = s.policy.grantCeiling;
	add(
		ceiling.reason
			? `grant ceiling: ${ceiling.tier} — RAISED in ${where(ceiling.origin)}: "${ceiling.reason}"`
			: `grant ceiling: ${ceiling.tier} (built-in; allow rules never approve anything above it)`,
	);
	add(`tiers: ${TIERS.map((tier) => `${tier} ${s.policy.tiers[tier].mode}`).join(" · ")}`);
	for (const tier of TIERS) {
		const setting = s.policy.tiers[tier];
		if (setting.ref.origin.file !== "built-in")
			add(`  ${tier} → ${setting.mode} from ${where(setting.ref.origin)}`);
	}
	for (const rule of s.policy.rules) {
		const r = rule.ref;
		add(`${r.action} ${r.surface} "${r.pattern}"${r.reason ? ` (${r.reason})` : ""} — ${where(r.origin)}`);
	}
	for (const m of s.policy.agentRules.deny)
		add(`agent deny ${m.kind}${m.name ? ` "${m.name}"` : ""} — ${where(m.origin)}`);
	for (const m of s.policy.agentRules.allow)
		add(`agent allow ${m.kind}${m.name ? ` "${m.name}"` : ""} (not a bypass) — ${where(m.origin)}`);
	add(
		`unanswered asks: ${s.policy.unanswered ?? "default (wait with a human, defer without)"} · dialog timeout ${s.policy.dialogTimeoutSeconds} s`,
	);
	for (const w of s.policy.warnings) add(`warning: ${w.message} — ${w.file} ${w.jsonPath}`);

	section("Sandbox");
	for (const line of describeSandbox(s.sandbox, s.policy.sandbox)) add(line);

	section("File tools");
	add(
		s.uncontainedFileTools === null
			? "read, write and edit are the gate's own: each opens only the file it checked, following no link made since (adr/0014)"
			: `write and edit ask a human: ${s.uncontainedFileTools}`,
	);

	section("Authorizer chain");
	if (s.links.length === 0) add("(no links enabled: authorizerChain is empty)");
	for (const [i, link] of s.links.entries()) {
		add(`${i + 1}. ${link.name} — ${link.registered ? "registered" : "NOT registered (skipped)"}`);
	}

	section("Pending forwarded asks");
	if (s.pending.length === 0 && s.parkedUnreadable.length === 0) add("(none)");
	for (const [i, label] of s.pending.entries()) add(`${i + 1} of ${s.pending.length}: ${label}`);
	for (const line of s.parkedUnreadable) add(line);

	section("Children served");
	if (s.children.length === 0) add("(none seen in this session)");
	for (const child of s.children) add(`${child.label} — ${child.where}`);

	section("Recent decisions");
	if (s.recent.length === 0) add("(none yet)");
	for (const d of s.recent) {
		const who = d.origin.kind === "subagent" ? ` [${originLabel(d.origin)}]` : "";
		add(
			`${d.time.slice(11, 19)} ${d.outcome} ${d.tool}: ${d.preview.slice(0, 80)}${who} — ${describeDecisionSource(d.source)}`,
		);
	}

	section("Saved rules in force here (choose one to remove it)");
	const saved = s.policy.rules.flatMap((rule) => {
		const index = /^rules\[(\d+)\]$/.exec(rule.ref.origin.jsonPath)?.[1];
		const { saved: at, pattern, origin } = rule.ref;
		return at === undefined || index === undefined
			? []
			: [{ rule, ref: { file: origin.file, index: Number(index), pattern, saved: at } }];
	});
	if (saved.length === 0) add("(none: answer a dialog with Always allow or Always deny)");
	for (const { rule, ref } of saved) {
		lines.push({
			text: shownLine(
				`${rule.ref.action} ${rule.ref.surface} "${ref.pattern}"${rule.limit?.maxTier ? ` (up to ${rule.limit.maxTier})` : ""} — saved ${ref.saved.slice(0, 16).replace("T", " ")}, ${where(rule.ref.origin)}`,
			),
			savedRule: ref,
		});
	}

	section("Session grants (choose one to revoke it)");
	if (s.grants.length === 0) add("(none)");
	for (const g of s.grants) {
		add(
			`${g.surface} "${g.pattern}" (${g.scope}, up to ${g.limit.tier}${g.limit.outsideCwd ? ", outside the cwd too" : ""}) — granted ${g.grantedAt.slice(11, 19)}`,
			g.id,
		);
	}
	return lines;
}
