/**
 * `approve` and `deny`: answer a parked request (or `--all` the filters select) from the command line, and
 * record each answer in the audit log.
 */
import { AUDIT_SCHEMA_VERSION, type AuditEntry } from "../../audit/audit-entry.ts";
import { AuditWriter } from "../../audit/audit-writer.ts";
import type { AnswerResult, ParkedStore } from "../../hub/parked-store.ts";
import { type ForwardRequest, REQUEST_ID } from "../../hub/protocol.ts";
import { type Origin, originLabel } from "../../origin/origin.ts";
import { userOnce } from "../../provenance/decision-source.ts";
import { errorMessage } from "../../vocabulary/error-message.ts";
import { auditLogFiles, defaultAuditLog } from "../audit-logs.ts";
import {
	CliError,
	type CommandInput,
	type CommandResult,
	type CommandSpec,
	type FailureKind,
	usageError,
} from "../command.ts";
import { displayLine, displayPreview, plural } from "../display-text.ts";
import {
	FILTER_NAMES,
	openParkedStore,
	PARKED_FILTER_HELP,
	PARKED_FILTER_OPTIONS,
	parkedAnswerJson,
	parkedFilter,
	parkedRequestJson,
	requesterPath,
	selectParked,
} from "../parked-requests.ts";

export const approveCommand: CommandSpec = {
	name: "approve",
	summary: "approve a parked request (or --all of them): the identical action may run once",
	synopsis: "<id> | --all [filters] [--once] [--reason TEXT]",
	help: `Answers a parked request with an approval. The approval covers exactly that action (same tool, input,
directory and tier: its action hash) and is used up by the first attempt that runs it; a different action
still asks. Refused (exit code 1) when the id is unknown, expired or already answered. Writes one audit line
per answer (event "cli", decided by user via cli).

With --all instead of an id, every parked request still waiting for an answer is approved, or only those the
filters select (the same filters as "pending"; check with "pending" first). Exit code 1 when none is selected.

Options:
  --all                  every waiting request (that the filters below select)
${PARKED_FILTER_HELP}
  --once                 the scope of every CLI approval, stated explicitly (one identical action)
  --reason TEXT          why, recorded in the answer and the audit line`,
	options: {
		...PARKED_FILTER_OPTIONS,
		all: { type: "boolean" },
		once: { type: "boolean" },
		reason: { type: "string" },
	},
	positionals: { min: 0, max: 1, name: "the request id" },
	run: (input) => answerParked(input, "allow"),
};

export const denyCommand: CommandSpec = {
	name: "deny",
	summary: "deny a parked request (or --all of them): it is closed and the action stays blocked",
	synopsis: "<id> | --all [filters] [--reason TEXT]",
	help: `Answers a parked request with a denial: the request is closed (no session offers it again) and the
action stays blocked. Refused (exit code 1) when the id is unknown, expired or already answered. Writes one
audit line per answer (event "cli", decided by user via cli).

With --all instead of an id, every parked request still waiting for an answer is denied, or only those the
filters select (the same filters as "pending"). Exit code 1 when none is selected.

Options:
  --all                  every waiting request (that the filters below select)
${PARKED_FILTER_HELP}
  --reason TEXT          why, recorded in the answer and the audit line`,
	options: { ...PARKED_FILTER_OPTIONS, all: { type: "boolean" }, reason: { type: "string" } },
	positionals: { min: 0, max: 1, name: "the request id" },
	run: (input) => answerParked(input, "deny"),
};

const REFUSALS: Readonly<Record<Extract<AnswerResult, { ok: false }>["reason"], FailureKind>> = {
	unknown: "unknown_request",
	expired: "expired",
	answered: "already_answered",
	too_large: "invalid",
};

type Verdict = "allow" | "deny";

interface Answered {
	readonly request: ForwardRequest;
	readonly result: Extract<AnswerResult, { ok: true }>;
	readonly origin: Origin | null;
}

/**
 * `approve` / `deny`: record the answer in the parked store (first answer wins), then write one audit line for
 * it. The answer is the decision; a failed audit write is reported (exit 2) but does not undo it. With `--all`,
 * every waiting request the filters select is answered the same way.
 */
async function answerParked(input: CommandInput, verdict: Verdict): Promise<CommandResult> {
	const all = input.options.flag("all");
	const filter = parkedFilter(input.options);
	const given = input.args[0];
	if (all && given !== undefined) throw usageError("give a request id or --all, not both");
	if (!all && filter !== null) throw usageError(`${FILTER_NAMES.join(", ")} choose the requests for --all`);
	if (!all && given === undefined) {
		throw usageError(
			`missing the request id (as "pending" lists them), or --all for every waiting request (narrowed with ${FILTER_NAMES.join(", ")})`,
		);
	}
	const reason = input.options.string("reason");
	if (reason !== undefined && reason.trim() === "") throw usageError("--reason must not be empty");
	const store = openParkedStore(input.agentDir);
	const now = input.io.now();
	const logs = auditLogFiles(input.agentDir, input.log);
	if (!all) {
		const answered = await answerOne(store, given ?? "", verdict, reason, logs);
		return report(input, verdict, reason, [answered], [], now);
	}
	const waiting = store.entries(now).filter((e) => e.answer === null);
	const selected = await selectParked(waiting, filter, logs, now);
	if (selected.length === 0) {
		const among = filter === null ? "" : " matches the filters";
		throw new CliError(
			"no_match",
			`no parked request waiting for an answer${among}; "pi-permission-hub pending" lists them`,
		);
	}
	const answered: Answered[] = [];
	const skipped: { id: string; reason: string }[] = [];
	for (const entry of selected) {
		const result = recordAnswer(store, entry.request.id, verdict, reason);
		// Answered, used up or expired since it was listed: someone else was first, which is not an error here.
		if (result.ok) answered.push({ request: entry.request, result, origin: entry.origin });
		else skipped.push({ id: entry.request.id, reason: result.message });
	}
	return report(input, verdict, reason, answered, skipped, now, true);
}

async function answerOne(
	store: ParkedStore,
	given: string,
	verdict: Verdict,
	reason: string | undefined,
	logs: readonly string[],
): Promise<Answered> {
	const id = given.trim().toUpperCase();
	if (!REQUEST_ID.test(id)) {
		throw new CliError(
			"unknown_request",
			`${JSON.stringify(given)} is not a request id (26 letters and digits, as "pending" lists them)`,
		);
	}
	// Read first: once approved, a running session may use the approval up (and remove the request) at once.
	const asked = store.request(id);
	const result = recordAnswer(store, id, verdict, reason);
	if (!result.ok) throw new CliError(REFUSALS[result.reason], refusalMessage(result, id));
	const request = asked ?? store.request(id);
	if (request === null) {
		throw new CliError("io", `answered ${id}, but its request file is gone; no audit line was written`);
	}
	const [selected] = await selectParked([{ request, answer: null }], null, logs, Date.now());
	return { request, result, origin: selected?.origin ?? null };
}

function recordAnswer(
	store: ParkedStore,
	id: string,
	verdict: Verdict,
	reason: string | undefined,
): AnswerResult {
	try {
		return store.answer(id, verdict, userOnce("cli", verdict, reason), null, reason);
	} catch (error) {
		throw new CliError("io", `cannot record the answer for ${id}: ${errorMessage(error)}`);
	}
}

async function report(
	input: CommandInput,
	verdict: Verdict,
	reason: string | undefined,
	answered: readonly Answered[],
	skipped: readonly { id: string; reason: string }[],
	now: number,
	all = false,
): Promise<CommandResult> {
	const auditFile = input.log ?? defaultAuditLog(input.agentDir);
	const writer = new AuditWriter({ file: auditFile });
	for (const { request, origin } of answered) {
		await writer.record(cliAuditEntry({ request, verdict, reason, origin, now }));
	}
	await writer.flush();
	const items = answered.map(({ request, result, origin }) => ({
		request: parkedRequestJson(request, now),
		answer: parkedAnswerJson(result.answer),
		origin,
	}));
	const audit = { audit_log: auditFile, audit_written: writer.error === null };
	const data = all ? { answered: items, skipped, ...audit } : { ...items[0], ...audit };
	const text = all ? allText(verdict, answered, skipped) : oneText(verdict, answered[0]);
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

function describe({ request, origin }: Answered): string[] {
	const who = origin === null ? requesterPath(request) : originLabel(origin);
	return [
		`  ${displayLine(request.tool, 100)} (${request.tier}): ${displayPreview(request.preview)}`,
		`  asked by ${displayLine(who, 400)} in ${displayLine(request.cwd, 400)}`,
	];
}

function oneText(verdict: Verdict, answered: Answered | undefined): string {
	if (answered === undefined) return "";
	const id = answered.request.id;
	return verdict === "allow"
		? [
				`pi-permission-hub approve: approved parked request ${id}`,
				...describe(answered),
				`  Exactly this action may now run once, the next time it is attempted (until ${answered.request.expiresAt}).`,
				"  A different action still asks.",
			].join("\n")
		: [
				`pi-permission-hub deny: denied parked request ${id}`,
				...describe(answered),
				"  The request is closed and will not be offered for approval again; the action stays blocked.",
			].join("\n");
}

function allText(
	verdict: Verdict,
	answered: readonly Answered[],
	skipped: readonly { id: string; reason: string }[],
): string {
	const done = verdict === "allow" ? "approved" : "denied";
	const lines = [
		`pi-permission-hub ${verdict === "allow" ? "approve" : "deny"} --all: ${done} ${plural(answered.length, "parked request")}`,
	];
	for (const item of answered) lines.push("", `  ${item.request.id}`, ...describe(item).map((l) => `  ${l}`));
	for (const { id, reason } of skipped) lines.push("", `  ${id}  skipped: ${displayLine(reason, 300)}`);
	lines.push(
		"",
		verdict === "allow"
			? "  Each approved action may now run once, the next time it is attempted; different actions still ask."
			: "  Each denied request is closed; those actions stay blocked.",
	);
	return lines.join("\n");
}

function refusalMessage(result: Extract<AnswerResult, { ok: false }>, id: string): string {
	switch (result.reason) {
		case "unknown":
			return `${result.message}; "pi-permission-hub pending" lists the parked requests`;
		case "expired":
			return `${result.message}; it can no longer be answered (a new attempt asks again)`;
		case "answered":
			return `${result.message}; the first answer stands (see "pi-permission-hub explain ${id}")`;
		case "too_large":
			return `${result.message}; give a shorter --reason (control characters take 6 bytes each)`;
	}
}

/** The session id CLI lines carry: no pi session decided, a person at the command line did. */
const CLI_SESSION_ID = "cli";

interface CliAnswer {
	readonly request: ForwardRequest;
	readonly verdict: "allow" | "deny";
	readonly reason: string | undefined;
	/** Who asked, as the gate recorded it when it parked the request. */
	readonly origin: Origin | null;
	readonly now: number;
}

/**
 * The audit line for an answer given with `approve` / `deny`: a user decision via the CLI for this one
 * request. Its latency is how long the request waited for the answer.
 */
function cliAuditEntry(answer: CliAnswer): AuditEntry {
	const { request, verdict, now } = answer;
	const source = userOnce("cli", verdict, answer.reason);
	return {
		v: AUDIT_SCHEMA_VERSION,
		time: new Date(now).toISOString(),
		sessionId: CLI_SESSION_ID,
		event: "cli",
		origin: answer.origin,
		tool: request.tool,
		tier: request.tier,
		actionHash: request.actionHash,
		preview: request.preview,
		mode: "ask",
		outcome: verdict,
		source,
		...(verdict === "deny" ? { reason: source.reason ?? "denied with pi-permission-hub deny" } : {}),
		requestId: request.id,
		latencyMs: Math.max(0, now - Date.parse(request.createdAt)),
		configFiles: [],
	};
}
