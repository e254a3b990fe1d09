import type { AuditEntry, SandboxRecord } from "../../audit/audit-entry.ts";
import { type Origin, originLabel } from "../../origin/origin.ts";
import { innermostSource } from "../../provenance/decision-source.ts";
import { describeDecisionSource } from "../../provenance/describe-decision-source.ts";
import { auditLogFiles, describeScan, scanAuditLogs, scanJson } from "../audit-logs.ts";
import { type CommandSpec, success, usageError } from "../command.ts";
import { displayLine, displayPreview, plural } from "../display-text.ts";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 10_000;
/** A hash prefix shorter than this matches too much to mean one action. */
const MIN_HASH_PREFIX = 8;

interface Match {
	readonly entry: AuditEntry;
	readonly field: MatchField;
}

export const explainCommand: CommandSpec = {
	name: "explain",
	summary: "every decision matching a session id, request id, action hash, command text or origin",
	synopsis: "<query> [--limit N]",
	help: `Finds audit lines whose session id equals <query>, whose request id equals it (any case), whose
action hash starts with it (at least ${MIN_HASH_PREFIX} hex digits), or whose redacted preview or asker
contains it (case-insensitive). The asker is a subagent's path of names, as each line shows it or as claimed
("subagent root ← planner? ← worker" or "subagent root ← planner ← worker"; a "?" marks a guess), or
"human", "headless", "ci (PROVIDER)" or "unknown". Shows the newest first with the full DecisionSource chain, e.g.
forwarded(01a2b3c4…) → user(dialog, allow once). Exit code 1 when nothing matches.

Options:
  --limit N              show at most N matches (default ${DEFAULT_LIMIT})`,
	options: { limit: { type: "string" } },
	positionals: { min: 1, max: 1, name: "the query" },
	async run(input) {
		const query = explainQuery(input.args[0] ?? "");
		const limit = parseLimit(input.options.string("limit"));
		const matches = new NewestMatches<Match>(limit);
		const scan = await scanAuditLogs(auditLogFiles(input.agentDir, input.log), (entry) => {
			const field = matchEntry(entry, query);
			if (field !== null) matches.add({ entry, field }, entry.time);
		});
		const shown = matches.newestFirst();
		const data = {
			query: query.text,
			...scanJson(scan),
			match_count: matches.total,
			shown: shown.length,
			limit,
			matches: shown.map(matchJson),
		};
		const header = `pi-permission-hub explain: ${plural(matches.total, "match", "matches")} for ${JSON.stringify(displayLine(query.text, 200))}${matches.total > shown.length ? ` (newest ${shown.length} shown; raise --limit for more)` : ""}, ${describeScan(scan)}`;
		const text = [header, ...shown.flatMap(matchText)].join("\n");
		if (matches.total === 0) {
			return {
				exitCode: 1,
				data,
				text,
				failure: { kind: "no_match", message: `no audit entry matches ${JSON.stringify(query.text)}` },
			};
		}
		return success(data, text);
	},
};

function parseLimit(value: string | undefined): number {
	if (value === undefined) return DEFAULT_LIMIT;
	const limit = /^\d+$/.test(value) ? Number(value) : Number.NaN;
	if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
		throw usageError(`--limit must be a whole number from 1 to ${MAX_LIMIT} (got ${JSON.stringify(value)})`);
	}
	return limit;
}

function matchJson({ entry, field }: Match): Record<string, unknown> {
	const inner = innermostSource(entry.source);
	return {
		matched_on: field,
		decided_by: inner.source?.kind ?? "none",
		forwarding_hops: inner.hops,
		source_text: describeDecisionSource(entry.source),
		entry,
	};
}

function matchText({ entry, field }: Match): string[] {
	const origin = entry.origin === null ? "unknown origin" : originLabel(entry.origin);
	const lines = [
		"",
		`${displayLine(entry.time, 64)}  ${entry.event}  ${displayLine(origin, 200)}  session ${displayLine(entry.sessionId, 256)}`,
		`    ${displayLine(entry.tool, 100)} (${entry.tier}): ${displayPreview(entry.preview)}`,
		`    mode ${entry.mode} → ${entry.outcome}${entry.requestId === undefined ? "" : `   request ${displayLine(entry.requestId, 128)}`}`,
		`    decided by: ${describeDecisionSource(entry.source)}`,
	];
	if (entry.chain && entry.chain.length > 0) {
		const steps = entry.chain.map(
			(s) => `${displayLine(s.link, 100)} ${s.result}${s.reason ? ` (${displayLine(s.reason, 200)})` : ""}`,
		);
		lines.push(`    authorizer links: ${steps.join(", ")}`);
	}
	if (entry.sandbox !== undefined) lines.push(`    ran ${SANDBOX_TEXT[entry.sandbox]}`);
	if (entry.why !== undefined) lines.push(`    asked because: ${displayLine(entry.why, 2000)}`);
	if (entry.reason !== undefined) lines.push(`    reason: ${displayLine(entry.reason, 2000)}`);
	if (entry.ceiling) {
		lines.push(
			`    grant ceiling raised to ${entry.ceiling.tier}: ${displayLine(entry.ceiling.reason, 500)}`,
		);
	}
	lines.push(`    action hash ${displayLine(entry.actionHash, 128)}   matched on ${field.replace("_", " ")}`);
	return lines;
}

/** How an allowed bash call ran while the sandbox was on (adr/0017). */
const SANDBOX_TEXT: Readonly<Record<SandboxRecord, string>> = {
	"read-only": "in the read-only sandbox (no writes outside a private /tmp, no network)",
	"project-write": "in the project-write sandbox (writes in the project but not its .git or .pi, no network)",
	network: "in the network sandbox (writes in the project, the network)",
	none: "unsandboxed, as a human approved it",
	excluded: "unsandboxed: sandbox.exclude names its commands",
	unavailable: "UNSANDBOXED: the sandbox was on but could not run",
};

/** What made an entry match, in the order they are tried. */
type MatchField = "session" | "request" | "action_hash" | "preview" | "origin";

interface ExplainQuery {
	readonly text: string;
	readonly lower: string;
}

function explainQuery(raw: string): ExplainQuery {
	const text = raw.trim();
	if (text === "") throw usageError("the query must not be empty");
	return { text, lower: text.toLowerCase() };
}

/**
 * Exact session id; request id (any case: ids are upper-case Crockford, people type them either way); action
 * hash by prefix of at least 8 hex digits; or a case-insensitive substring of the redacted preview or of the
 * origin label as shown or by its claimed names (`subagent root ← planner ← worker`, `subagent root ← scout?`,
 * `ci (github-actions)`, `headless`, `unknown`).
 */
function matchEntry(entry: AuditEntry, query: ExplainQuery): MatchField | null {
	if (entry.sessionId === query.text) return "session";
	if (entry.requestId !== undefined && entry.requestId.toLowerCase() === query.lower) return "request";
	if (
		query.lower.length >= MIN_HASH_PREFIX &&
		/^[0-9a-f]+$/.test(query.lower) &&
		entry.actionHash.toLowerCase().startsWith(query.lower)
	) {
		return "action_hash";
	}
	if (entry.preview.toLowerCase().includes(query.lower)) return "preview";
	const labels = entry.origin === null ? ["unknown"] : originLabels(entry.origin);
	if (labels.some((label) => label.toLowerCase().includes(query.lower))) return "origin";
	return null;
}

/** The origin as shown (a child's best name, adr/0025) and by the names it claims (what agent rules match). */
function originLabels(origin: Origin): string[] {
	if (origin.kind !== "subagent") return [originLabel(origin)];
	const { shown: _, ...claimed } = origin;
	return [originLabel(origin), originLabel(claimed)];
}

/**
 * Keeps the `limit` newest of a stream of items without holding the whole stream: memory stays at about twice
 * the limit. Newest means the latest time; among equal (or unreadable) times, the later line.
 */
class NewestMatches<T> {
	private readonly limit: number;
	private items: { readonly item: T; readonly at: number; readonly seq: number }[] = [];
	private seen = 0;

	constructor(limit: number) {
		this.limit = limit;
	}

	add(item: T, time: string): void {
		const parsed = Date.parse(time);
		this.items.push({ item, at: Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed, seq: this.seen++ });
		if (this.items.length >= this.limit * 2) this.trim();
	}

	/** How many items were offered in all. */
	get total(): number {
		return this.seen;
	}

	newestFirst(): T[] {
		this.trim();
		return this.items.map((i) => i.item);
	}

	private trim(): void {
		this.items.sort((a, b) => (a.at === b.at ? b.seq - a.seq : b.at > a.at ? 1 : -1));
		this.items.length = Math.min(this.items.length, this.limit);
	}
}
