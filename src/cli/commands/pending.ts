import type { ParkedEntry } from "../../hub/parked-store.ts";
import { type CommandSpec, success } from "../command-spec.ts";
import { displayLine, plural } from "../display-text.ts";
import { durationText } from "../duration-text.ts";
import { openParkedStore } from "../open-parked-store.ts";
import { parkedAnswerJson, parkedRequestJson, requesterPath } from "../parked-request-json.ts";

export const pendingCommand: CommandSpec = {
	name: "pending",
	summary: "parked requests waiting for an approval (and answers not used yet)",
	synopsis: "",
	help: `Lists the asks that were parked because nobody could answer them (the "defer" unanswered policy):
id, who asked (root ← planner ← worker), tier, the redacted preview, age and expiry, and whether an answer was
given. Expired requests are not listed. Answer one with "approve <id>" or "deny <id>".`,
	options: {},
	positionals: { min: 0, max: 0, name: "" },
	async run(input) {
		const store = openParkedStore(input.agentDir);
		const now = input.io.now();
		const entries = store.entries(now);
		const waiting = entries.filter((e) => e.answer === null).length;
		const data = {
			dir: store.dir,
			count: entries.length,
			waiting,
			requests: entries.map((e) => ({
				...parkedRequestJson(e.request, now),
				answer: e.answer === null ? null : parkedAnswerJson(e.answer),
			})),
		};
		const header = `pi-permission-hub pending: ${plural(entries.length, "parked request")} (${waiting} waiting for an answer) in ${store.dir}`;
		return success(data, [header, ...entries.flatMap((e) => entryText(e, now))].join("\n"));
	},
};

function entryText({ request, answer }: ParkedEntry, now: number): string[] {
	const state =
		answer === null
			? "waiting"
			: `${answer.decision === "allow" ? "approved" : "denied"} via ${answer.via} at ${answer.answeredAt}${answer.decision === "allow" ? " (not used yet)" : ""}`;
	const age = durationText(now - Date.parse(request.createdAt));
	const expiry = durationText(Date.parse(request.expiresAt) - now);
	const lines = [
		"",
		`  ${request.id}  ${state}`,
		`      asked by  ${displayLine(requesterPath(request), 400)}   (${age} ago, expires in ${expiry})`,
		`      action    ${displayLine(request.tool, 100)} (${request.tier}) in ${displayLine(request.cwd, 400)}`,
		`      preview   ${displayLine(request.preview, 1000)}`,
		`      why       ${displayLine(request.why, 500)}`,
	];
	if (answer === null) {
		lines.push(
			`      answer    pi-permission-hub approve ${request.id}   |   pi-permission-hub deny ${request.id}`,
		);
	} else if (answer.reason !== undefined) {
		lines.push(`      reason    ${displayLine(answer.reason, 500)}`);
	}
	return lines;
}
