import type { AuditEntry } from "../audit/audit-entry.ts";
import { NAMED_ORIGIN_KINDS, type OriginKind } from "../origin/origin.ts";
import { sanitizeLabel } from "../origin/sanitize-label.ts";
import { compareText, groupOf } from "./origin-groups.ts";

/** The config schema caps a matcher name at this length (src/policy/config-schema.ts). */
const MAX_MATCHER_NAME = 200;
/** Distinct origins collected; a hostile log could invent millions of names. */
const MAX_ORIGINS = 1_000;

const KIND_ORDER: readonly OriginKind[] = ["human", "subagent", "headless", "ci"];

export interface ObservedOrigin {
	readonly kind: OriginKind;
	readonly name: string | null;
	readonly decisions: number;
}

/** Distinct (kind, name) origins seen in the audit log, and how many could not become a matcher. */
export class ObservedOrigins {
	private readonly seen = new Map<string, { kind: OriginKind; name: string | null; decisions: number }>();
	private unusable = 0;
	private overflow = 0;

	add(entry: AuditEntry): void {
		const { kind, name } = groupOf(entry.origin);
		if (kind === "unknown") return;
		if (name !== null && !isMatchableName(name)) {
			this.unusable++;
			return;
		}
		const key = JSON.stringify([kind, name]);
		const found = this.seen.get(key);
		if (found) found.decisions++;
		else if (this.seen.size >= MAX_ORIGINS) this.overflow++;
		else this.seen.set(key, { kind, name, decisions: 1 });
	}

	/** Sorted by kind, then name (none first): the same order on every run over the same log. */
	list(): ObservedOrigin[] {
		return [...this.seen.values()].sort(
			(a, b) =>
				KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
				(a.name === b.name ? 0 : a.name === null ? -1 : b.name === null ? 1 : compareText(a.name, b.name)),
		);
	}

	/** Lines whose origin name no rule could match (invisible characters, too long). */
	get skippedLines(): number {
		return this.unusable + this.overflow;
	}
}

/**
 * A name becomes a matcher only if the gate could ever see it: the gate sanitizes origin labels, so a name that
 * sanitizing would change (control or invisible characters, surrounding blanks) was not written by the gate.
 */
function isMatchableName(name: string): boolean {
	return name !== "" && name.length <= MAX_MATCHER_NAME && sanitizeLabel(name) === name;
}

const HEADER = `// pi-permission-hub agent rules, scaffolded by \`pi-permission-hub policy init\` from the origins in the audit log.
//
// Every entry is commented out on purpose: uncommenting one changes who may act, so review each line first.
// Copy the "agentRules" section into <agent dir>/pi-permission-hub/config.json (user level), or into
// <project>/.pi/pi-permission-hub.json (project level, read only when pi trusts the project).
//
//   deny   every tool call from a matching origin is refused, reads included.
//   allow  records that you expect this origin. It is NOT a bypass: rules, tier modes and asks still apply,
//          and a deny entry wins over an allow entry.
//
// Origins are caller-claimed (environment variables, launcher announcements): an operator signal, not proof
// of identity. A name matches exactly (case-sensitive); an entry without "name" matches every name of its kind.
`;

/**
 * The scaffold text: deterministic for the same observed origins (no times, no paths, sorted). A kind that has
 * names (subagent, ci) gets a line matching every name first, then one line per name seen.
 */
export function agentRulesScaffold(origins: readonly ObservedOrigin[]): string {
	const entries = scaffoldEntries(origins);
	const section = (key: "allow" | "deny", last: boolean): string[] => [
		`\t\t"${key}": [`,
		...entries.map((e) => `\t\t\t// ${matcherText(e)}, // ${e.note}`),
		`\t\t]${last ? "" : ","}`,
	];
	const note =
		origins.length === 0
			? ["// No origins were found in the audit log; the sections below are empty.", ""]
			: [];
	return [
		HEADER,
		...note,
		"{",
		'\t"agentRules": {',
		...section("allow", false),
		...section("deny", true),
		"\t}",
		"}",
		"",
	].join("\n");
}

interface ScaffoldEntry {
	readonly kind: OriginKind;
	readonly name: string | null;
	readonly note: string;
}

function scaffoldEntries(origins: readonly ObservedOrigin[]): ScaffoldEntry[] {
	const entries: ScaffoldEntry[] = [];
	for (const kind of KIND_ORDER) {
		const ofKind = origins.filter((o) => o.kind === kind);
		if (ofKind.length === 0) continue;
		const total = ofKind.reduce((sum, o) => sum + o.decisions, 0);
		if (!NAMED_ORIGIN_KINDS.includes(kind)) {
			entries.push({ kind, name: null, note: decisions(total) });
			continue;
		}
		entries.push({ kind, name: null, note: `every ${kind}, whatever its name: ${decisions(total)}` });
		for (const o of ofKind) {
			if (o.name !== null) entries.push({ kind, name: o.name, note: decisions(o.decisions) });
		}
	}
	return entries;
}

function decisions(count: number): string {
	return `${count} decision${count === 1 ? "" : "s"}`;
}

export function matcherText(origin: { readonly kind: OriginKind; readonly name?: string | null }): string {
	return origin.name === null || origin.name === undefined
		? `{ "kind": "${origin.kind}" }`
		: `{ "kind": "${origin.kind}", "name": ${JSON.stringify(origin.name)} }`;
}
