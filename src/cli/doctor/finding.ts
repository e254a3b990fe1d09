/**
 * The doctor's findings: what its checks read, what they report, and how a finding reads as text and as JSON.
 */
import type { FileView } from "../../launchers/file-view.ts";
import type { SettingsChange } from "../../launchers/settings-change.ts";
import { displayLine, plural } from "../display-text.ts";

/** What every check of the doctor reads: the files through `view`, nothing else from the machine. */
export interface DoctorInput {
	readonly agentDir: string;
	/** The directory children would run in: `--project`, else the working directory. */
	readonly projectDir: string;
	readonly homeDir: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The package directory this command runs from. */
	readonly ownRoot: string;
	readonly view: FileView;
}

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
	"tintinweb-agent-without-gate": "problem",
	"subagents-children-lose-extensions": "warning",
	"extension-path-missing": "warning",
	"extension-path-relative": "warning",
	"extension-package-spec": "warning",
	"sandbox-unavailable": "warning",
	"gate-installed": "info",
	"subagents-not-installed": "info",
	"tintinweb-subagents-installed": "info",
	"sandbox-on": "info",
	"sandbox-off": "info",
} as const;

export type FindingId = keyof typeof FINDING_SEVERITY;
export type Severity = (typeof FINDING_SEVERITY)[FindingId];

const SEVERITY_ORDER: readonly Severity[] = ["problem", "warning", "info"];

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

/** Problems first, then warnings, then information; the order found within each. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
	return [...findings].sort(
		(a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity),
	);
}

export function describeCounts(findings: readonly Finding[]): string {
	const counts = countBySeverity(findings);
	return `${plural(counts.problem, "problem")}, ${plural(counts.warning, "warning")}, ${counts.info} info`;
}

/** Paths and entries come from files anyone may have written: one clean line each, never control characters. */
const line = (text: string): string => displayLine(text, 4_000);

export function findingText(f: Finding): string {
	const about = f.file === null ? "" : `  (${line(f.file)})`;
	return [
		`${f.severity.padEnd(7)}  ${f.id}${about}`,
		`    ${line(f.explanation)}`,
		`    fix: ${line(f.fix)}`,
	].join("\n");
}

export function changeText(change: SettingsChange): string {
	return [
		`  ${line(change.file)}  "${change.key}"`,
		`    before: ${change.before === null ? "(absent)" : line(JSON.stringify(change.before))}`,
		`    after:  ${line(JSON.stringify(change.after))}`,
	].join("\n");
}

export function changeJson(change: SettingsChange): Record<string, unknown> {
	return { file: change.file, key: change.key, before: change.before, after: change.after };
}

export function findingJson(f: Finding): Record<string, unknown> {
	return {
		id: f.id,
		severity: f.severity,
		file: f.file,
		explanation: f.explanation,
		fix: f.fix,
		change: f.change === null ? null : changeJson(f.change),
	};
}
