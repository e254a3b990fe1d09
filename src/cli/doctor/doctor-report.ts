import { displayLine, plural } from "../display-text.ts";
import { countBySeverity, type Finding, SEVERITY_ORDER, type SettingsChange } from "./finding.ts";

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
