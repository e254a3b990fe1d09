import type { AuditEntry } from "../audit/audit-entry.ts";
import { originLabel } from "../origin/origin.ts";
import { usageError } from "./cli-error.ts";

/** What made an entry match, in the order they are tried. */
export type MatchField = "session" | "request" | "action_hash" | "preview" | "origin";

/** A hash prefix shorter than this matches too much to mean one action. */
export const MIN_HASH_PREFIX = 8;

export interface ExplainQuery {
	readonly text: string;
	readonly lower: string;
}

export function explainQuery(raw: string): ExplainQuery {
	const text = raw.trim();
	if (text === "") throw usageError("the query must not be empty");
	return { text, lower: text.toLowerCase() };
}

/**
 * Exact session id; request id (any case: ids are upper-case Crockford, people type them either way); action
 * hash by prefix of at least 8 hex digits; or a case-insensitive substring of the redacted preview or of the
 * origin label (`subagent root ← planner ← worker`, `ci (github-actions)`, `headless`, `unknown`).
 */
export function matchEntry(entry: AuditEntry, query: ExplainQuery): MatchField | null {
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
	const label = entry.origin === null ? "unknown" : originLabel(entry.origin);
	if (label.toLowerCase().includes(query.lower)) return "origin";
	return null;
}
