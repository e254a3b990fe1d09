import { isUsable, type ParkedAnswer, type UnusableAnswer, unusableText } from "../../hub/parked-store.ts";
import { originDescription } from "../../origin/origin.ts";
import { describeDecisionSource } from "../../provenance/describe-decision-source.ts";
import { auditLogFiles } from "../audit-logs.ts";
import { type CommandSpec, success } from "../command.ts";
import { displayLine, displayPreview, plural } from "../display-text.ts";
import {
	openParkedStore,
	PARKED_FILTER_HELP,
	PARKED_FILTER_OPTIONS,
	parkedAnswerJson,
	parkedFilter,
	parkedRequestJson,
	requesterPath,
	type SelectedEntry,
	selectParked,
} from "../parked-requests.ts";

export const pendingCommand: CommandSpec = {
	name: "pending",
	summary: "parked requests waiting for an approval (and answers not used yet)",
	synopsis: "[filters] [--prune]",
	help: `Lists the asks that were parked because nobody could answer them (the "defer" unanswered policy):
id, who asked (a print-mode run, or root ← planner ← worker), tier, the redacted preview, age and expiry,
whether only a human may answer it (a guarded path, an agents section's ask: "human_only" in --format json),
and whether an answer was given. Expired requests are not listed. Answer one with "approve <id>" or "deny <id>",
or every listed one with "approve --all" / "deny --all" and the same filters.

Options:
${PARKED_FILTER_HELP}
  --prune                first remove expired requests and their answers from the parked directory`,
	options: { ...PARKED_FILTER_OPTIONS, prune: { type: "boolean" } },
	positionals: { min: 0, max: 0, name: "" },
	async run(input) {
		const filter = parkedFilter(input.options);
		const store = openParkedStore(input.agentDir);
		const now = input.io.now();
		const pruned = input.options.flag("prune") ? store.sweep(now) : null;
		const entries = await selectParked(
			store.entries(now),
			filter,
			auditLogFiles(input.agentDir, input.log),
			now,
		);
		const waiting = entries.filter((e) => e.answer === null).length;
		const data = {
			dir: store.dir,
			count: entries.length,
			waiting,
			filtered: filter !== null,
			pruned,
			requests: entries.map((e) => ({
				...parkedRequestJson(e.request, now),
				origin: e.origin,
				answer: e.answer === null ? null : parkedAnswerJson(e.answer),
			})),
		};
		const header = [
			`pi-permission-hub pending: ${plural(entries.length, "parked request")}${filter === null ? "" : " matching the filters"} (${waiting} waiting for an answer) in ${store.dir}`,
			...(pruned === null ? [] : [`  removed ${plural(pruned, "expired request")}`]),
		];
		return success(data, [...header, ...entries.flatMap((e) => entryText(e, now))].join("\n"));
	},
};

function entryText({ request, answer, origin }: SelectedEntry, now: number): string[] {
	const state = answer === null ? "waiting" : answerState(answer);
	const age = durationText(now - Date.parse(request.createdAt));
	const expiry = durationText(Date.parse(request.expiresAt) - now);
	const who = origin === null ? requesterPath(request) : originDescription(origin);
	const lines = [
		"",
		`  ${request.id}  ${state}`,
		`      asked by  ${displayLine(who, 400)}, session ${displayLine(request.chain[0]?.sessionId ?? "unknown", 100)}   (${age} ago, expires in ${expiry})`,
		`      action    ${displayLine(request.tool, 100)} (${request.tier}${request.humanOnly === true ? ", only a human may answer it" : ""}) in ${displayLine(request.cwd, 400)}`,
		`      preview   ${displayPreview(request.preview)}`,
		`      why       ${displayLine(request.why, 500)}`,
	];
	if (answer === null) {
		lines.push(
			`      answer    pi-permission-hub approve ${request.id}   |   pi-permission-hub deny ${request.id}`,
		);
	} else if (isUsable(answer) && answer.reason !== undefined) {
		lines.push(`      reason    ${displayLine(answer.reason, 500)}`);
	}
	return lines;
}

function answerState(answer: ParkedAnswer | UnusableAnswer): string {
	if (!isUsable(answer)) return unusableText(answer);
	const decided = answer.decision === "allow" ? "approved" : "denied";
	const by = displayLine(describeDecisionSource(answer.source), 300);
	return `${decided} by ${by} at ${answer.answeredAt}${answer.decision === "allow" ? " (not used yet)" : ""}`;
}

/** A rough, readable length of time: `45s`, `3m 12s`, `2h 5m`, `3d 4h`. */
function durationText(ms: number): string {
	const seconds = Math.max(0, Math.floor(ms / 1000));
	if (seconds < 60) return `${seconds}s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
	const hours = Math.floor(minutes / 60);
	if (hours < 24) return `${hours}h ${minutes % 60}m`;
	return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
