/**
 * Parked requests as the commands see them: the store the gate writes, opened only when private; the filters
 * `pending`, `approve --all` and `deny --all` share (and `--origin`, which `check` takes too); each request
 * with who asked; and the JSON form of a request and its answer.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { ParseArgsOptionsConfig } from "node:util";
import {
	isUsable,
	type ParkedAnswer,
	type ParkedEntry,
	ParkedStore,
	type UnusableAnswer,
	unusableText,
} from "../hub/parked-store.ts";
import { checkPrivateDir, UnsafeDirectoryError } from "../hub/private-files.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import { hubRoot } from "../hub/protocol.ts";
import { ORIGIN_KINDS, type Origin, type OriginKind, originName } from "../origin/origin.ts";
import { innermostSource } from "../provenance/decision-source.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { scanAuditLogs } from "./audit-logs.ts";
import { CliError, type OptionValues, usageError } from "./command.ts";

/**
 * The parked store the gate writes (see `startSessionGate` in src/gate/session-gate.ts). Its directories must be
 * private, as the gate requires: requests planted in a directory others can write must not be shown or approved.
 */
export function openParkedStore(agentDir: string): ParkedStore {
	const dir = join(hubRoot(agentDir), "parked");
	for (const path of [hubRoot(agentDir), dir]) {
		if (lstatSync(path, { throwIfNoEntry: false }) === undefined) break;
		try {
			checkPrivateDir(path);
		} catch (error) {
			const why = error instanceof UnsafeDirectoryError ? error.message : errorMessage(error);
			throw new CliError("io", `refusing to use the parked requests: ${why}`);
		}
	}
	return new ParkedStore(dir, agentDir);
}

/** A parked request as the JSON output shows it (snake_case, times in ISO 8601 and seconds from now). */
export interface ParkedRequestJson {
	readonly id: string;
	readonly tool: string;
	readonly tier: ForwardRequest["tier"];
	readonly preview: string;
	readonly cwd: string;
	readonly why: string;
	readonly action_hash: string;
	readonly path: readonly string[];
	readonly requester: ForwardRequest["chain"][number] | null;
	readonly chain: ForwardRequest["chain"];
	readonly created_at: string;
	readonly expires_at: string;
	readonly age_seconds: number;
	readonly expires_in_seconds: number;
	/** Only a human may answer it (adr/0006): the asker's policy said so; `approve` is a human's answer. */
	readonly human_only: boolean;
}

export function parkedRequestJson(request: ForwardRequest, now: number): ParkedRequestJson {
	return {
		id: request.id,
		tool: request.tool,
		tier: request.tier,
		preview: request.preview,
		cwd: request.cwd,
		why: request.why,
		action_hash: request.actionHash,
		path: request.path,
		requester: request.chain[0] ?? null,
		chain: request.chain,
		created_at: request.createdAt,
		expires_at: request.expiresAt,
		age_seconds: Math.max(0, Math.floor((now - Date.parse(request.createdAt)) / 1000)),
		expires_in_seconds: Math.max(0, Math.floor((Date.parse(request.expiresAt) - now) / 1000)),
		human_only: request.humanOnly === true,
	};
}

export function parkedAnswerJson(answer: ParkedAnswer | UnusableAnswer): Record<string, unknown> {
	// Nothing but its format is read from an answer a newer version wrote, and nothing from one that is no
	// answer to its request: neither has a decision here.
	if (!isUsable(answer)) {
		return "newerFormat" in answer
			? { decision: null, format: answer.newerFormat, unreadable: unusableText(answer) }
			: { decision: null, ignored: unusableText(answer) };
	}
	const decisive = innermostSource(answer.source).source;
	return {
		decision: answer.decision,
		// The surface a human answered at; null when a link, rule or grant settled it (`source` says which).
		via: decisive?.kind === "user" ? decisive.via : null,
		source: answer.source,
		answered_at: answer.answeredAt,
		responder_session_id: answer.responderSessionId,
		...(answer.reason === undefined ? {} : { reason: answer.reason }),
	};
}

/** `root ← planner ← worker`: who asked, through whom (root first, as in the dialogs). */
export function requesterPath(request: ForwardRequest): string {
	return request.path.join(" ← ");
}

/** `--origin KIND[:NAME]`: an origin kind, and for subagents and CI the name or provider. */
export interface OriginMatcher {
	readonly kind: OriginKind;
	readonly name: string | null;
}

export function parseOriginOption(text: string): OriginMatcher {
	const colon = text.indexOf(":");
	const kind = colon < 0 ? text : text.slice(0, colon);
	const name = colon < 0 ? null : text.slice(colon + 1);
	const known = ORIGIN_KINDS.find((k) => k === kind);
	if (known === undefined) {
		throw usageError(
			`--origin must be KIND or KIND:NAME, KIND one of ${ORIGIN_KINDS.join(", ")} (got ${JSON.stringify(text)})`,
		);
	}
	if (name !== null && (name === "" || known === "human" || known === "headless")) {
		throw usageError(
			`--origin ${JSON.stringify(text)}: only subagent and ci origins carry a (non-empty) name`,
		);
	}
	return { kind: known, name };
}

/** The filters `pending`, `approve --all` and `deny --all` share. */
export const PARKED_FILTER_OPTIONS: ParseArgsOptionsConfig = {
	session: { type: "string" },
	origin: { type: "string" },
	"older-than": { type: "string" },
	"newer-than": { type: "string" },
};

export const PARKED_FILTER_HELP = `  --session ID           asked by this session, or relayed through it (the whole id: "pi -p" prints it when
                         it parks something; ids that start alike were made at about the same time)
  --origin KIND[:NAME]   who asked: human, subagent, headless (print and JSON mode runs) or ci; a NAME matches
                         the subagent name or CI provider exactly (subagent:reviewer)
  --older-than AGE       parked more than AGE ago: 30s, 15m, 2h, 3d, 1w
  --newer-than AGE       parked less than AGE ago`;

export const FILTER_NAMES = Object.keys(PARKED_FILTER_OPTIONS).map((name) => `--${name}`);

export interface ParkedFilter {
	readonly session: string | null;
	readonly origin: OriginMatcher | null;
	readonly olderThanMs: number | null;
	readonly newerThanMs: number | null;
}

/** A parked request with who asked: the origin its request carries, else the one its audit line recorded. */
export interface SelectedEntry extends ParkedEntry {
	readonly origin: Origin | null;
}

/** The filters given on the command line; null when none was. */
export function parkedFilter(options: OptionValues): ParkedFilter | null {
	const session = options.string("session");
	const origin = options.string("origin");
	const older = options.string("older-than");
	const newer = options.string("newer-than");
	if ([session, origin, older, newer].every((value) => value === undefined)) return null;
	if (session !== undefined && session.trim() === "") throw usageError("--session needs a session id");
	return {
		session: session?.trim().toLowerCase() ?? null,
		origin: origin === undefined ? null : parseOriginOption(origin),
		olderThanMs: older === undefined ? null : parseAge("--older-than", older),
		newerThanMs: newer === undefined ? null : parseAge("--newer-than", newer),
	};
}

/**
 * The entries the filter selects, each with its origin. Requests parked before requests carried their origin
 * are looked up in the audit logs, in one pass, only when one needs it.
 */
export async function selectParked(
	entries: readonly ParkedEntry[],
	filter: ParkedFilter | null,
	logFiles: readonly string[],
	now: number,
): Promise<SelectedEntry[]> {
	const fromLog = await loggedOrigins(
		entries.filter((e) => e.request.origin === undefined).map((e) => e.request.id),
		logFiles,
	);
	const withOrigin = entries.map((e) => ({
		...e,
		origin: e.request.origin ?? fromLog.get(e.request.id) ?? null,
	}));
	return filter === null ? withOrigin : withOrigin.filter((e) => matches(e, filter, now));
}

function matches(entry: SelectedEntry, filter: ParkedFilter, now: number): boolean {
	const { request, origin } = entry;
	const age = now - Date.parse(request.createdAt);
	if (filter.olderThanMs !== null && !(age > filter.olderThanMs)) return false;
	if (filter.newerThanMs !== null && !(age < filter.newerThanMs)) return false;
	if (filter.session !== null) {
		const wanted = filter.session;
		if (!request.chain.some((frame) => frame.sessionId.toLowerCase() === wanted)) return false;
	}
	if (filter.origin !== null) {
		if (origin === null || origin.kind !== filter.origin.kind) return false;
		if (filter.origin.name !== null && originName(origin) !== filter.origin.name) return false;
	}
	return true;
}

const UNIT_MS: Readonly<Record<string, number>> = {
	s: 1000,
	m: 60_000,
	h: 3_600_000,
	d: 86_400_000,
	w: 604_800_000,
};

function parseAge(option: string, text: string): number {
	const match = /^(\d{1,6})([smhdw])$/.exec(text.trim());
	const unit = match?.[2] === undefined ? undefined : UNIT_MS[match[2]];
	if (match === null || unit === undefined) {
		throw usageError(
			`${option} must be a number and a unit (s, m, h, d, w), e.g. 30m or 2d (got ${JSON.stringify(text)})`,
		);
	}
	return Number(match[1]) * unit;
}

/** Who asked, as the line that parked each request recorded it (the last such line wins, as a relay knows as much). */
async function loggedOrigins(ids: readonly string[], files: readonly string[]): Promise<Map<string, Origin>> {
	const found = new Map<string, Origin>();
	if (ids.length === 0) return found;
	const wanted = new Set(ids);
	// Only an annotation: a log that cannot be read leaves those origins unknown (and --origin matches none).
	await scanAuditLogs(files, (entry) => {
		if (
			entry.requestId !== undefined &&
			wanted.has(entry.requestId) &&
			entry.outcome === "pending" &&
			entry.event !== "cli" &&
			entry.origin !== null
		) {
			found.set(entry.requestId, entry.origin);
		}
	}).catch(() => undefined);
	return found;
}
