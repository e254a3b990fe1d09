import type { ParseArgsOptionsConfig } from "node:util";
import type { ParkedEntry } from "../hub/parked-store.ts";
import { type Origin, originName } from "../origin/origin.ts";
import { usageError } from "./cli-error.ts";
import type { OptionValues } from "./option-values.ts";
import { type OriginMatcher, parseOriginOption } from "./origin-option.ts";
import { scanAuditLogs } from "./scan-audit-logs.ts";

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
