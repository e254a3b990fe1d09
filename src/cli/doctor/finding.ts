/** What the doctor reports. Ids and severities are stable: scripts read them from `--format json`. */
export const FINDING_SEVERITY = {
	"gate-not-installed": "problem",
	"subagents-default-extensions-missing": "problem",
	"subagents-default-extensions-without-gate": "problem",
	"project-default-extensions-without-gate": "problem",
	"agent-extensions-without-gate": "problem",
	"agent-override-extensions-without-gate": "problem",
	"agent-definitions-not-all-read": "problem",
	"package-entry-unloadable": "problem",
	"subagents-children-lose-extensions": "warning",
	"extension-path-missing": "warning",
	"extension-path-relative": "warning",
	"extension-package-spec": "warning",
	"gate-installed": "info",
	"subagents-not-installed": "info",
} as const;

export type FindingId = keyof typeof FINDING_SEVERITY;
export type Severity = (typeof FINDING_SEVERITY)[FindingId];

export const SEVERITY_ORDER: readonly Severity[] = ["problem", "warning", "info"];

/** The settings keys the doctor may change: both are lists it only appends to. */
export type SettingsKey = "packages" | "subagents.defaultExtensions";

/** One change `--fix` makes: the whole value of one key before and after (null before: the key is absent). */
export interface SettingsChange {
	readonly file: string;
	readonly key: SettingsKey;
	readonly before: readonly unknown[] | null;
	readonly after: readonly unknown[];
}

export interface Finding {
	readonly id: FindingId;
	readonly severity: Severity;
	/** The file the finding is about (a settings or agent file), or null when it is about the whole setup. */
	readonly file: string | null;
	/** What is wrong and why it matters, in plain words. */
	readonly explanation: string;
	/** The exact fix: a command, or the entry to add and where. */
	readonly fix: string;
	/** The settings change `--fix` makes for this finding; null when it needs a person (or nothing is wrong). */
	readonly change: SettingsChange | null;
}

export function finding(
	id: FindingId,
	fields: { file: string | null; explanation: string; fix: string; change?: SettingsChange | null },
): Finding {
	return {
		id,
		severity: FINDING_SEVERITY[id],
		file: fields.file,
		explanation: fields.explanation,
		fix: fields.fix,
		change: fields.change ?? null,
	};
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
	const counts: Record<Severity, number> = { problem: 0, warning: 0, info: 0 };
	for (const f of findings) counts[f.severity]++;
	return counts;
}
