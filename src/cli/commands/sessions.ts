import { auditLogFiles, describeScan, scanAuditLogs, scanJson } from "../audit-logs.ts";
import { type CommandSpec, success } from "../command.ts";
import { displayLine, plural } from "../display-text.ts";
import { groupLabel, type OriginGroup, OriginGroups } from "../origin-groups.ts";

export const sessionsCommand: CommandSpec = {
	name: "sessions",
	summary: "decisions per origin (who asked) from the audit log",
	synopsis: "",
	help: `Groups every audit line by its origin — human, subagent (by agent name), headless, ci (by provider) —
and counts modes (auto / ask / deny), outcomes (allow / deny / pending), who decided (the kind of the
innermost DecisionSource frame) and how many decisions came back through a forwarding hop. Lines without an
origin are counted in an "unknown" group rather than dropped. Every audit line counts, answers given with
"approve" / "deny" too (event "cli", under the origin of the request they answered). Corrupt lines are
skipped and counted.`,
	options: {},
	positionals: { min: 0, max: 0, name: "" },
	async run(input) {
		const groups = new OriginGroups();
		const scan = await scanAuditLogs(auditLogFiles(input.agentDir, input.log), (entry) => groups.add(entry));
		const list = groups.list();
		const data = {
			...scanJson(scan),
			group_count: list.length,
			groups: list.map(groupJson),
			...(groups.overflow > 0 ? { uncounted_lines: groups.overflow } : {}),
		};
		const header = `pi-permission-hub sessions: ${plural(scan.entries, "decision")} in ${plural(list.length, "origin group")}, ${describeScan(scan)}`;
		const overflow =
			groups.overflow > 0
				? [`  ${plural(groups.overflow, "line")} not counted: too many distinct origins`]
				: [];
		return success(data, [header, ...overflow, ...list.flatMap(groupText)].join("\n"));
	},
};

function groupJson(group: OriginGroup): Record<string, unknown> {
	return {
		kind: group.kind,
		name: group.name,
		decisions: group.decisions,
		events: group.events,
		sessions: group.sessions,
		sessions_capped: group.sessionsCapped,
		mode: group.mode,
		outcome: group.outcome,
		decided_by: group.decidedBy,
		forwarded: group.forwarded,
		first_seen: group.firstSeen,
		last_seen: group.lastSeen,
	};
}

function groupText(group: OriginGroup): string[] {
	const sessions = `${group.sessions}${group.sessionsCapped ? "+" : ""} session${group.sessions === 1 && !group.sessionsCapped ? "" : "s"}`;
	const counts = (record: Readonly<Record<string, number>>) =>
		Object.entries(record)
			.map(([key, count]) => `${key} ${count}`)
			.join(" · ");
	return [
		"",
		`  ${displayLine(groupLabel(group.kind, group.name))}`,
		`      ${plural(group.decisions, "decision")} in ${sessions}, last ${group.lastSeen === null ? "-" : displayLine(group.lastSeen)}`,
		`      mode      auto ${group.mode.auto} · ask ${group.mode.ask} · deny ${group.mode.deny}`,
		`      outcome   allow ${group.outcome.allow} · deny ${group.outcome.deny} · pending ${group.outcome.pending}`,
		`      events    ${counts(group.events)}`,
		`      decided   ${counts(group.decidedBy)}${group.forwarded > 0 ? ` (${group.forwarded} through a forwarding hop)` : ""}`,
	];
}
