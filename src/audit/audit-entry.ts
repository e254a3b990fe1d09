import { createReadStream } from "node:fs";
import { type Origin, originSchema } from "../origin/origin.ts";
import { type DecisionSource, readDecisionSource } from "../provenance/decision-source.ts";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import { PARKED_ANSWER_REFUSALS } from "../vocabulary/parked-answer-refusal.ts";
import { PERMISSION_MODES } from "../vocabulary/permission-mode.ts";
import { TIERS } from "../vocabulary/tier.ts";
import * as z from "../vocabulary/zod.ts";
import { openLogForReading } from "./log-file.ts";

export const AUDIT_SCHEMA_VERSION = 1;

/** How an allowed bash call ran, as the audit line records it. */
export const SANDBOX_RECORDS = [
	"read-only",
	"project-write",
	"network",
	"none",
	"excluded",
	"unavailable",
] as const;
export type SandboxRecord = (typeof SANDBOX_RECORDS)[number];

/** What a link in the authorizer chain did for one ask. */
export const chainStepSchema = lazySchema(() =>
	z.object({
		link: z.string().check(z.maxLength(200)),
		result: z.enum(["allow", "deny", "defer", "error", "timeout", "unregistered"]),
		reason: z.optional(z.string().check(z.maxLength(2000))),
		ms: z.number().check(z.nonnegative()),
	}),
);
export type ChainStep = z.infer<ReturnType<typeof chainStepSchema>>;

/**
 * Caps on free text, above anything the gate writes (a bash preview is up to 8192 characters plus a "… (N
 * characters in all)" tail; a block reason quotes a preview, a rule and an error). A line the gate itself wrote
 * must never read back as corrupt; the reader's 1 MiB line limit bounds memory either way.
 */
const MAX_PREVIEW = 16 * 1024;
const MAX_REASON = 16 * 1024;

/**
 * One line of the audit log. Lines are read back by the CLI from files other processes wrote, so the reader
 * validates every field; the DecisionSource goes through its own depth-capped reader.
 */
export const auditEntrySchema = lazySchema(() =>
	z.object({
		v: z.literal(AUDIT_SCHEMA_VERSION),
		time: z.string().check(z.maxLength(64)),
		sessionId: z.string().check(z.maxLength(256)),
		event: z.enum(["tool_call", "user_bash", "forwarded_ask", "cli"]),
		origin: z.nullable(originSchema()),
		tool: z.string().check(z.maxLength(256)),
		tier: z.enum(TIERS),
		actionHash: z.string().check(z.maxLength(128)),
		preview: z.string().check(z.maxLength(MAX_PREVIEW)),
		mode: z.enum(["auto", "ask", "deny"]),
		outcome: z.enum(["allow", "deny", "pending"]),
		source: z.unknown(),
		reason: z.optional(z.string().check(z.maxLength(MAX_REASON))),
		/** For a call that asked: why the policy asked, naming the part (command or path) that asked. */
		why: z.optional(z.string().check(z.maxLength(MAX_REASON))),
		requestId: z.optional(z.string().check(z.maxLength(128))),
		/** For a forwarded ask: the asking child's session (`sessionId` is the deciding parent's). */
		requesterSessionId: z.optional(z.string().check(z.maxLength(256))),
		latencyMs: z.number().check(z.nonnegative()),
		configFiles: z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(16)),
		chain: z.optional(z.array(chainStepSchema()).check(z.maxLength(64))),
		ceiling: z.optional(z.object({ tier: z.enum(TIERS), reason: z.string().check(z.maxLength(2000)) })),
		/**
		 * For an allowed bash call while the sandbox is on (adr/0017): the profile it runs in, `none` when a human
		 * approved it (it runs as approved), `excluded` when `sandbox.exclude` exempts it, `unavailable` when no sandbox can run here. Absent: the sandbox is off.
		 */
		sandbox: z.optional(z.enum(SANDBOX_RECORDS)),
		/**
		 * For an allowed `read`, `write` or `edit` the gate's own tool runs (adr/0014): the real path of the file it
		 * opens. The tool opens that file or none (no link met on the way is followed), so it is the file written.
		 */
		file: z.optional(z.string().check(z.maxLength(4096))),
		/** The permission mode of the session that decided (adr/0023); absent in lines written before modes. */
		permissionMode: z.optional(z.enum(PERMISSION_MODES)),
		/**
		 * For a parked ask this session settled: the parked store refused the answer (adr/0006), so it counted for
		 * nothing. The outcome is then never `allow` and the reason says why; absent when the answer was stored.
		 */
		answerRefused: z.optional(z.enum(PARKED_ANSWER_REFUSALS)),
	}),
);

export type AuditEntry = Omit<z.infer<ReturnType<typeof auditEntrySchema>>, "source" | "origin"> & {
	source: DecisionSource;
	origin: Origin | null;
};

/** Parse one untrusted line; null when anything about it is wrong. */
export function parseAuditLine(line: string): AuditEntry | null {
	let raw: unknown;
	try {
		raw = JSON.parse(line);
	} catch {
		return null;
	}
	const parsed = auditEntrySchema().safeParse(raw);
	if (!parsed.success) return null;
	const source = readDecisionSource(parsed.data.source);
	if (source === null) return null;
	return { ...parsed.data, source };
}

/** A line longer than this is not one we wrote; skipping it keeps memory bounded on hostile files. */
const MAX_LINE_BYTES = 1024 * 1024;

export interface AuditReadStats {
	entries: number;
	corrupt: number;
}

/**
 * Stream a JSONL audit log, calling `onEntry` for each valid line. Corrupt, partial or oversized lines are
 * counted and skipped: a torn last line (a writer killed mid-append) never stops a reader. Blank lines are
 * skipped uncounted; CRLF line ends are accepted. A missing or unreadable file, or one that is not a regular file,
 * rejects.
 */
export async function readAuditLog(
	file: string,
	onEntry: (entry: AuditEntry) => void,
	stats: AuditReadStats = { entries: 0, corrupt: 0 },
): Promise<AuditReadStats> {
	// A FIFO or a link at the log's name is an error, not a read that never ends (adr/0005).
	const stream = createReadStream("", { fd: openLogForReading(file), highWaterMark: 64 * 1024 });
	let pending: Buffer[] = [];
	let pendingBytes = 0;
	let oversized = false;

	const finishLine = (line: Buffer): void => {
		// CRLF lines parse as they are (`\r` is JSON whitespace); a blank CRLF line is blank, not corrupt.
		if (line.length === 0 || (line.length === 1 && line[0] === 13)) return;
		const entry = parseAuditLine(line.toString("utf8"));
		if (entry === null) stats.corrupt++;
		else {
			stats.entries++;
			onEntry(entry);
		}
	};

	for await (const chunk of stream as AsyncIterable<Buffer>) {
		let start = 0;
		for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
			const piece = chunk.subarray(start, i);
			if (oversized) stats.corrupt++;
			else if (pendingBytes + piece.length > MAX_LINE_BYTES) stats.corrupt++;
			else finishLine(pendingBytes === 0 ? piece : Buffer.concat([...pending, piece]));
			pending = [];
			pendingBytes = 0;
			oversized = false;
			start = i + 1;
		}
		const rest = chunk.subarray(start);
		if (rest.length === 0 || oversized) continue;
		if (pendingBytes + rest.length > MAX_LINE_BYTES) {
			oversized = true;
			pending = [];
			pendingBytes = 0;
		} else {
			pending.push(Buffer.from(rest));
			pendingBytes += rest.length;
		}
	}
	if (oversized) stats.corrupt++;
	else if (pendingBytes > 0) finishLine(Buffer.concat(pending));
	return stats;
}
