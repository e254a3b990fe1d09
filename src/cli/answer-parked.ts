import { AuditWriter } from "../audit/audit-writer.ts";
import type { AnswerResult } from "../hub/parked-store.ts";
import { REQUEST_ID } from "../hub/protocol.ts";
import { originLabel } from "../origin/origin.ts";
import { auditLogFiles, defaultAuditLog } from "./audit-log-files.ts";
import { cliAuditEntry } from "./cli-audit-entry.ts";
import { CliError, errorMessage, type FailureKind } from "./cli-error.ts";
import type { CommandInput, CommandResult } from "./command-spec.ts";
import { displayLine } from "./display-text.ts";
import { openParkedStore } from "./open-parked-store.ts";
import { parkedAnswerJson, parkedRequestJson, requesterPath } from "./parked-request-json.ts";
import { parkedRequestOrigin } from "./parked-request-origin.ts";

const REFUSALS: Readonly<Record<Extract<AnswerResult, { ok: false }>["reason"], FailureKind>> = {
	unknown: "unknown_request",
	expired: "expired",
	answered: "already_answered",
};

/**
 * `approve` / `deny`: record the answer in the parked store (first answer wins), then write one audit line for
 * it. The answer is the decision; a failed audit write is reported (exit 2) but does not undo it.
 */
export async function answerParked(input: CommandInput, verdict: "allow" | "deny"): Promise<CommandResult> {
	const id = (input.args[0] ?? "").trim().toUpperCase();
	if (!REQUEST_ID.test(id)) {
		throw new CliError(
			"unknown_request",
			`${JSON.stringify(input.args[0] ?? "")} is not a request id (26 letters and digits, as "pending" lists them)`,
		);
	}
	const reason = input.options.string("reason");
	if (reason !== undefined && reason.trim() === "") throw new CliError("usage", "--reason must not be empty");
	const store = openParkedStore(input.agentDir);
	// Read first: once approved, a running session may use the approval up (and remove the request) at once.
	const asked = store.request(id);
	let result: AnswerResult;
	try {
		result = store.answer(id, verdict, "cli", null, reason);
	} catch (error) {
		throw new CliError("io", `cannot record the answer for ${id}: ${errorMessage(error)}`);
	}
	if (!result.ok) throw new CliError(REFUSALS[result.reason], refusalMessage(result, id));
	const request = asked ?? store.request(id);
	if (request === null) {
		throw new CliError("io", `answered ${id}, but its request file is gone; no audit line was written`);
	}

	const now = input.io.now();
	// Who asked is only an annotation: a log that cannot be read leaves it unknown (the write below will tell).
	const origin = await parkedRequestOrigin(auditLogFiles(input.agentDir, input.log), id).catch(() => null);
	const auditFile = input.log ?? defaultAuditLog(input.agentDir);
	const writer = new AuditWriter({ file: auditFile });
	await writer.record(cliAuditEntry({ request, verdict, reason, origin, now }));
	await writer.flush();

	const data = {
		request: parkedRequestJson(request, now),
		answer: parkedAnswerJson(result.answer),
		origin,
		audit_log: auditFile,
		audit_written: writer.error === null,
	};
	const what = `${displayLine(request.tool, 100)} (${request.tier}): ${displayLine(request.preview, 500)}`;
	const who = origin === null ? requesterPath(request) : originLabel(origin);
	const text =
		verdict === "allow"
			? [
					`pi-permission-hub approve: approved parked request ${id}`,
					`  ${what}`,
					`  asked by ${displayLine(who, 400)} in ${displayLine(request.cwd, 400)}`,
					`  Exactly this action may now run once, the next time it is attempted (until ${request.expiresAt}).`,
					"  A different action still asks.",
				].join("\n")
			: [
					`pi-permission-hub deny: denied parked request ${id}`,
					`  ${what}`,
					`  asked by ${displayLine(who, 400)} in ${displayLine(request.cwd, 400)}`,
					"  The request is closed and will not be offered for approval again; the action stays blocked.",
				].join("\n");
	if (writer.error !== null) {
		return {
			exitCode: 2,
			data,
			text,
			failure: {
				kind: "io",
				message: `the answer was recorded, but the audit line could not be written to ${auditFile}: ${writer.error.message}`,
			},
		};
	}
	return { exitCode: 0, data, text };
}

function refusalMessage(result: Extract<AnswerResult, { ok: false }>, id: string): string {
	switch (result.reason) {
		case "unknown":
			return `${result.message}; "pi-permission-hub pending" lists the parked requests`;
		case "expired":
			return `${result.message}; it can no longer be answered (a new attempt asks again)`;
		case "answered":
			return `${result.message}; the first answer stands (see "pi-permission-hub explain ${id}")`;
	}
}
