import type { AuditEntry } from "../audit/audit-entry.ts";
import { ORIGIN_KINDS, type Origin, type OriginKind, originName } from "../origin/origin.ts";
import { innermostSource } from "../provenance/decision-source.ts";

export type GroupKind = OriginKind | "unknown";

const KIND_ORDER: readonly GroupKind[] = [...ORIGIN_KINDS, "unknown"];

/** Distinct session ids tracked over all groups; past it a group's session count is a lower bound. */
const MAX_TRACKED_SESSIONS = 100_000;
/** Distinct (kind, name) groups; lines of further names are counted as overflow (a hostile log can invent names). */
const MAX_GROUPS = 10_000;

export interface OriginGroup {
	readonly kind: GroupKind;
	/** Subagent name or CI provider; null for kinds without one (and a CI run with no known provider). */
	readonly name: string | null;
	readonly decisions: number;
	/** Audit lines by event: gate decisions (`tool_call`, `user_bash`, `forwarded_ask`) and CLI answers (`cli`). */
	readonly events: Readonly<Record<string, number>>;
	/** Distinct pi sessions (CLI answers belong to none). */
	readonly sessions: number;
	/** True when `sessions` stopped counting (very many distinct ids). */
	readonly sessionsCapped: boolean;
	readonly mode: { readonly auto: number; readonly ask: number; readonly deny: number };
	readonly outcome: { readonly allow: number; readonly deny: number; readonly pending: number };
	/** By the kind of the innermost DecisionSource frame (`none`: the last hop sent no source). */
	readonly decidedBy: Readonly<Record<string, number>>;
	/** Decisions that came back through at least one forwarding hop. */
	readonly forwarded: number;
	readonly firstSeen: string | null;
	readonly lastSeen: string | null;
}

interface MutableGroup {
	kind: GroupKind;
	name: string | null;
	decisions: number;
	events: Map<string, number>;
	sessions: Set<string>;
	sessionsCapped: boolean;
	mode: { auto: number; ask: number; deny: number };
	outcome: { allow: number; deny: number; pending: number };
	decidedBy: Map<string, number>;
	forwarded: number;
	first: { time: string; at: number } | null;
	last: { time: string; at: number } | null;
}

/** Per-origin counts over a stream of audit entries, in bounded memory. */
export class OriginGroups {
	private readonly groups = new Map<string, MutableGroup>();
	private trackedSessions = 0;
	private overflowLines = 0;

	add(entry: AuditEntry): void {
		const { kind, name } = groupOf(entry.origin);
		const key = JSON.stringify([kind, name]);
		let group = this.groups.get(key);
		if (group === undefined) {
			if (this.groups.size >= MAX_GROUPS) {
				this.overflowLines++;
				return;
			}
			group = emptyGroup(kind, name);
			this.groups.set(key, group);
		}
		group.decisions++;
		group.events.set(entry.event, (group.events.get(entry.event) ?? 0) + 1);
		// A forwarded ask is recorded by the deciding parent; the session it belongs to is the child's.
		const session = entry.event === "forwarded_ask" ? entry.requesterSessionId : entry.sessionId;
		if (entry.event !== "cli" && session !== undefined && !group.sessions.has(session)) {
			if (this.trackedSessions < MAX_TRACKED_SESSIONS) {
				group.sessions.add(session);
				this.trackedSessions++;
			} else group.sessionsCapped = true;
		}
		group.mode[entry.mode]++;
		group.outcome[entry.outcome]++;
		const inner = innermostSource(entry.source);
		const decider = inner.source?.kind ?? "none";
		group.decidedBy.set(decider, (group.decidedBy.get(decider) ?? 0) + 1);
		if (inner.hops > 0) group.forwarded++;
		const at = Date.parse(entry.time);
		if (!Number.isNaN(at)) {
			if (group.first === null || at < group.first.at) group.first = { time: entry.time, at };
			if (group.last === null || at >= group.last.at) group.last = { time: entry.time, at };
		}
	}

	/** Lines not counted because the group limit was reached. */
	get overflow(): number {
		return this.overflowLines;
	}

	/** Sorted by kind (human, subagent, headless, ci, unknown), then name (none first, then by code point). */
	list(): OriginGroup[] {
		return [...this.groups.values()].sort(compareGroups).map((g) => ({
			kind: g.kind,
			name: g.name,
			decisions: g.decisions,
			events: sortedCounts(g.events),
			sessions: g.sessions.size,
			sessionsCapped: g.sessionsCapped,
			mode: { ...g.mode },
			outcome: { ...g.outcome },
			decidedBy: sortedCounts(g.decidedBy),
			forwarded: g.forwarded,
			firstSeen: g.first?.time ?? null,
			lastSeen: g.last?.time ?? null,
		}));
	}
}

export function groupOf(origin: Origin | null): { kind: GroupKind; name: string | null } {
	if (origin === null) return { kind: "unknown", name: null };
	return { kind: origin.kind, name: originName(origin) };
}

/** How a group reads: `subagent "worker"`, `ci "github-actions"`, `ci (no provider)`, `headless`. */
export function groupLabel(kind: GroupKind, name: string | null): string {
	if (kind === "unknown") return "unknown (no origin recorded)";
	if (name !== null) return `${kind} ${JSON.stringify(name)}`;
	return kind === "ci" ? "ci (no provider)" : kind;
}

function emptyGroup(kind: GroupKind, name: string | null): MutableGroup {
	return {
		kind,
		name,
		decisions: 0,
		events: new Map(),
		sessions: new Set(),
		sessionsCapped: false,
		mode: { auto: 0, ask: 0, deny: 0 },
		outcome: { allow: 0, deny: 0, pending: 0 },
		decidedBy: new Map(),
		forwarded: 0,
		first: null,
		last: null,
	};
}

function sortedCounts(counts: ReadonlyMap<string, number>): Record<string, number> {
	return Object.fromEntries([...counts].sort(([a], [b]) => compareText(a, b)));
}

function compareGroups(a: MutableGroup, b: MutableGroup): number {
	const byKind = KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind);
	if (byKind !== 0) return byKind;
	if (a.name === b.name) return 0;
	if (a.name === null) return -1;
	if (b.name === null) return 1;
	return compareText(a.name, b.name);
}

/** Plain string order (UTF-16 code units): the same on every machine, whatever its locale. */
export function compareText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
