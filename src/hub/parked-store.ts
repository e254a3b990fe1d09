import { readdirSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { type DecisionSource, readDecisionSource, userOnce } from "../provenance/decision-source.ts";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import type { ParkedAnswerRefusal } from "../vocabulary/parked-answer-refusal.ts";
import { removeQuietly } from "../vocabulary/remove-quietly.ts";
import * as z from "../vocabulary/zod.ts";
import {
	createExclusive,
	ensurePrivateDir,
	readInboxFile,
	readInboxJson,
	writePrivateFile,
} from "./private-files.ts";
import { type ForwardRequest, forwardRequestSchema, MAX_REQUEST_BYTES, REQUEST_ID } from "./protocol.ts";

const REQUEST_SUFFIX = ".request.json";
const ANSWER_SUFFIX = ".answer.json";
/** The largest answer file read; `answer()` refuses to write a larger one, so every answer written can be read. */
const MAX_ANSWER_BYTES = 16 * 1024;

/**
 * The answer file's format (adr/0006). Format 1 had no `format` field and named only the surface a human used
 * (`via`), so an answer a link, rule or grant gave was stored as a dialog's; format 2 carries the DecisionSource
 * that settled it. Format 1 files are still read (as that surface's human answer, all they ever claimed); a
 * reader of format 1 finds no `via` in a format 2 file and refuses it, so it never takes one for more.
 */
export const PARKED_ANSWER_FORMAT = 2;

const answerFields = {
	requestId: z.string().check(z.regex(REQUEST_ID)),
	actionHash: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
	decision: z.enum(["allow", "deny"]),
	answeredAt: z.iso.datetime(),
	reason: z.optional(z.string().check(z.maxLength(2000))),
	/** Session that answered (a root's dialog), or null for the CLI. */
	responderSessionId: z.nullable(z.string().check(z.maxLength(256))),
};

const answerSchema = lazySchema(() =>
	z.union([
		z.object({
			...answerFields,
			format: z.literal(PARKED_ANSWER_FORMAT),
			/** Read with the depth-capped reader (not this schema). */
			source: z.unknown(),
		}),
		// Format 1: exactly the surfaces it could name.
		z.object({ ...answerFields, format: z.optional(z.undefined()), via: z.enum(["dialog", "cli"]) }),
	]),
);

/** Only the format of an answer file a newer version wrote: nothing else in it is read. */
const newerFormatSchema = lazySchema(() =>
	z.looseObject({ format: z.int().check(z.gte(PARKED_ANSWER_FORMAT + 1)) }),
);

/** An answer as this version reads it, whatever format it was written in. */
export interface ParkedAnswer {
	readonly requestId: string;
	readonly actionHash: string;
	readonly decision: "allow" | "deny";
	/** What settled it: a human at a dialog or the CLI, or the link, rule or grant the answering session used. */
	readonly source: DecisionSource;
	readonly answeredAt: string;
	readonly reason?: string;
	readonly responderSessionId: string | null;
}

/**
 * An answer file a newer version of pi-permission-hub wrote, in a format this one cannot read: the request is
 * answered (a second answer is refused), but how is unknown here, so it is never taken as an approval.
 */
export interface NewerFormatAnswer {
	readonly newerFormat: number;
}

/**
 * An answer file that is no answer to its request: it names another request or another action (planted, or
 * copied from elsewhere), or it cannot be read at all. Like one in a newer format, the request counts as answered
 * (the file is created once, so a second answer is refused), and it is never an approval.
 */
export interface ForeignAnswer {
	readonly foreign: "request" | "action" | "unreadable";
}

/** An answer file this version never uses: `pending`, `approve` and a session's start all say so. */
export type UnusableAnswer = NewerFormatAnswer | ForeignAnswer;

export function isUsable(answer: ParkedAnswer | UnusableAnswer): answer is ParkedAnswer {
	return "decision" in answer;
}

/** What the humans who list or answer parked requests are told about an answer in a newer format. */
export function newerFormatText(answer: NewerFormatAnswer): string {
	return `answered by a newer version of pi-permission-hub (answer format ${answer.newerFormat}; this version reads format ${PARKED_ANSWER_FORMAT}): this version cannot read the answer, and never takes it as an approval`;
}

/** What the humans who list or answer parked requests are told about an answer this version never uses. */
export function unusableText(answer: UnusableAnswer): string {
	if ("newerFormat" in answer) return newerFormatText(answer);
	const what =
		answer.foreign === "unreadable"
			? "an answer file that cannot be read"
			: `an answer for another ${answer.foreign}`;
	return `has ${what}: ignored, never taken as an approval (and no other answer can be recorded while that file is there)`;
}

export interface ParkedEntry {
	readonly request: ForwardRequest;
	/** null: not answered yet. */
	readonly answer: ParkedAnswer | UnusableAnswer | null;
}

export type AnswerResult =
	| { readonly ok: true; readonly answer: ParkedAnswer }
	| {
			readonly ok: false;
			/** `too_large`: what settled it carries more text than an answer file may hold; nothing was written. */
			readonly reason: ParkedAnswerRefusal;
			readonly message: string;
	  };

/**
 * Parked requests (the `defer` unanswered policy) and the answers given later, under the agent dir where
 * every session of the user and the CLI can see them:
 *
 *   <id>.request.json   the request as it was forwarded (durable: written with fsync)
 *   <id>.answer.json    created once: the first answer wins, a second one is refused
 *
 * An approval lets exactly one identical action (same hash) through: using it up is an unlink, which exactly
 * one process can win.
 */
export class ParkedStore implements ParkedApprovals {
	readonly dir: string;
	private readonly base: string;
	/** Keyed by the directory's mtime; expiry is checked at each lookup, since time passes without a change. */
	private cache: { mtimeMs: number; approvals: { approval: ParkedApproval; expiresAt: number }[] } | null =
		null;

	/** `base` is the agent dir: everything from there down to `dir` must be private. */
	constructor(dir: string, base: string) {
		this.dir = dir;
		this.base = base;
	}

	/** Parking the same request again (offered again, unanswered again) never extends how long it may be approved. */
	async park(request: ForwardRequest): Promise<void> {
		ensurePrivateDir(this.dir, this.base);
		const earlier = this.readRequest(request.id);
		const stored =
			earlier !== null &&
			earlier.actionHash === request.actionHash &&
			Date.parse(earlier.expiresAt) < Date.parse(request.expiresAt)
				? { ...request, expiresAt: earlier.expiresAt }
				: request;
		await writePrivateFile(this.requestPath(request.id), JSON.stringify(stored), [], { fsync: true });
	}

	/** Every parked request still in force, oldest first, with its answer if it has one. */
	entries(now: number = Date.now()): ParkedEntry[] {
		const out: ParkedEntry[] = [];
		for (const name of this.list()) {
			if (!name.endsWith(REQUEST_SUFFIX)) continue;
			const id = name.slice(0, -REQUEST_SUFFIX.length);
			if (!REQUEST_ID.test(id)) continue;
			const request = this.readRequest(id);
			if (!request || Date.parse(request.expiresAt) <= now) continue;
			out.push({ request, answer: this.readAnswer(request) });
		}
		return out.sort((a, b) => a.request.id.localeCompare(b.request.id));
	}

	request(id: string): ForwardRequest | null {
		return REQUEST_ID.test(id) ? this.readRequest(id) : null;
	}

	/**
	 * Record the answer to a parked request and what settled it; refuses an unknown, expired or already answered
	 * one, and one too large to be read back (the request then stays unanswered).
	 */
	answer(
		id: string,
		decision: "allow" | "deny",
		source: DecisionSource,
		responderSessionId: string | null,
		reason?: string,
	): AnswerResult {
		const request = this.request(id);
		if (!request) return { ok: false, reason: "unknown", message: `no parked request with id ${id}` };
		if (Date.parse(request.expiresAt) <= Date.now()) {
			return {
				ok: false,
				reason: "expired",
				message: `parked request ${id} expired at ${request.expiresAt}`,
			};
		}
		const answer: ParkedAnswer = {
			requestId: id,
			actionHash: request.actionHash,
			decision,
			source,
			answeredAt: new Date().toISOString(),
			responderSessionId,
			...(reason ? { reason: reason.slice(0, 2000) } : {}),
		};
		const file = JSON.stringify({ format: PARKED_ANSWER_FORMAT, ...answer });
		const bytes = Buffer.byteLength(file);
		if (bytes > MAX_ANSWER_BYTES) {
			return {
				ok: false,
				reason: "too_large",
				message: `the answer to parked request ${id} was not recorded: it and what settled it take ${bytes} bytes, more than the ${MAX_ANSWER_BYTES} a parked answer may hold; the request stays parked, waiting for an answer`,
			};
		}
		const written = createExclusive(this.answerPath(id), file);
		this.cache = null;
		if (!written.created) {
			const existing = this.readAnswer(request);
			const message =
				existing === null || isUsable(existing)
					? `parked request ${id} was already answered`
					: "newerFormat" in existing
						? `parked request ${id} was ${newerFormatText(existing)}`
						: `parked request ${id} ${unusableText(existing)}`;
			return { ok: false, reason: "answered", message };
		}
		return { ok: true, answer };
	}

	find(actionHash: string): ParkedApproval | null {
		const now = Date.now();
		return (
			this.approvals().find((a) => a.approval.actionHash === actionHash && a.expiresAt > now)?.approval ??
			null
		);
	}

	consume(approval: ParkedApproval): boolean {
		this.cache = null;
		try {
			unlinkSync(this.answerPath(approval.requestId));
		} catch {
			return false;
		}
		removeQuietly(this.requestPath(approval.requestId));
		return true;
	}

	/** Remove expired requests and their answers, and answers whose request is gone. */
	sweep(now: number = Date.now()): number {
		let removed = 0;
		for (const name of this.list()) {
			const id = name.endsWith(REQUEST_SUFFIX)
				? name.slice(0, -REQUEST_SUFFIX.length)
				: name.endsWith(ANSWER_SUFFIX)
					? name.slice(0, -ANSWER_SUFFIX.length)
					: null;
			if (id === null || !REQUEST_ID.test(id)) continue;
			const request = this.readRequest(id);
			if (request && Date.parse(request.expiresAt) > now) continue;
			removeQuietly(this.requestPath(id));
			removeQuietly(this.answerPath(id));
			removed++;
		}
		this.cache = null;
		return removed;
	}

	private approvals(): { approval: ParkedApproval; expiresAt: number }[] {
		const mtimeMs = statSync(this.dir, { throwIfNoEntry: false })?.mtimeMs;
		if (mtimeMs === undefined) return [];
		if (this.cache?.mtimeMs === mtimeMs) return this.cache.approvals;
		const approvals: { approval: ParkedApproval; expiresAt: number }[] = [];
		for (const name of this.list()) {
			if (!name.endsWith(ANSWER_SUFFIX)) continue;
			const id = name.slice(0, -ANSWER_SUFFIX.length);
			const request = REQUEST_ID.test(id) ? this.readRequest(id) : null;
			const answer = request ? this.readAnswer(request) : null;
			if (request && answer && isUsable(answer) && answer.decision === "allow") {
				approvals.push({
					approval: {
						requestId: id,
						actionHash: answer.actionHash,
						approvedBy: answer.source,
						askerPath: request.path,
					},
					expiresAt: Date.parse(request.expiresAt),
				});
			}
		}
		this.cache = { mtimeMs, approvals };
		return approvals;
	}

	private list(): string[] {
		try {
			return readdirSync(this.dir);
		} catch {
			return [];
		}
	}

	private readRequest(id: string): ForwardRequest | null {
		const request = readInboxJson(this.requestPath(id), MAX_REQUEST_BYTES, forwardRequestSchema());
		return request?.id === id ? request : null;
	}

	/**
	 * The answer to `request` (null when there is no answer file), only its format when a newer version wrote it,
	 * or why a file that is there is no answer to it: one naming another request or action is dropped before its
	 * source is parsed.
	 */
	private readAnswer(request: ForwardRequest): ParkedAnswer | UnusableAnswer | null {
		const file = readJson(this.answerPath(request.id));
		if (file === null) return null;
		const raw = file.json;
		const newer = newerFormatSchema().safeParse(raw);
		if (newer.success) return { newerFormat: newer.data.format };
		const parsed = answerSchema().safeParse(raw);
		if (!parsed.success) return { foreign: "unreadable" };
		const read = parsed.data;
		if (read.requestId !== request.id) return { foreign: "request" };
		if (read.actionHash !== request.actionHash) return { foreign: "action" };
		const source: DecisionSource | null =
			read.format === PARKED_ANSWER_FORMAT
				? readDecisionSource(read.source)
				: userOnce(read.via, read.decision);
		if (source === null) return { foreign: "unreadable" };
		const { requestId, actionHash, decision, answeredAt, reason, responderSessionId } = read;
		return {
			requestId,
			actionHash,
			decision,
			source,
			answeredAt,
			responderSessionId,
			...(reason === undefined ? {} : { reason }),
		};
	}

	private requestPath(id: string): string {
		return join(this.dir, `${id}${REQUEST_SUFFIX}`);
	}

	private answerPath(id: string): string {
		return join(this.dir, `${id}${ANSWER_SUFFIX}`);
	}
}

/** An answer file's JSON (undefined when it is unsafe to read, too big or not JSON); null when there is none. */
function readJson(file: string): { readonly json: unknown } | null {
	const read = readInboxFile(file, MAX_ANSWER_BYTES);
	if (!read.ok) return read.missing ? null : { json: undefined };
	try {
		return { json: JSON.parse(read.text) };
	} catch {
		return { json: undefined };
	}
}

/** An approval a human gave later for a parked request: it lets exactly one identical action through. */
export interface ParkedApproval {
	readonly requestId: string;
	readonly actionHash: string;
	/** What settled the parked request (a human, or the link, rule or grant the answering session used). */
	readonly approvedBy: DecisionSource;
	/** The agent names of the parked request's origin, root first (an agents section's ask needs its own, adr/0022). */
	readonly askerPath: readonly string[];
}

/** Lookup of approvals for parked requests, by action hash. */
export interface ParkedApprovals {
	find(actionHash: string): ParkedApproval | null;
	/** Use the approval up (once): returns false when another session consumed it first. */
	consume(approval: ParkedApproval): boolean;
}
