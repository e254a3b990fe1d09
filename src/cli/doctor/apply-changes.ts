import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { FileView } from "../../launchers/file-view.ts";
import { errorMessage } from "../../vocabulary/error-message.ts";
import { CliError } from "../cli-error.ts";
import type { Finding, SettingsChange } from "./finding.ts";

/** The changes of the findings, one per file and key, in the order they were found. */
export function plannedChanges(findings: readonly Finding[]): SettingsChange[] {
	const changes: SettingsChange[] = [];
	for (const { change } of findings) {
		if (change !== null && !changes.some((c) => c.file === change.file && c.key === change.key))
			changes.push(change);
	}
	return changes;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The new content of a settings file: the changed keys set to their new value, every other key and the key order
 * kept, written as pi writes settings.json (JSON, 2-space indent). `text` null: the file does not exist yet.
 */
function changedSettingsText(text: string | null, changes: readonly SettingsChange[]): string {
	const value: unknown = text === null ? {} : JSON.parse(text.replace(/^\uFEFF/, ""));
	if (!isObject(value)) throw new Error("not a JSON object");
	for (const change of changes) {
		if (change.key === "packages") {
			value.packages = change.after;
			continue;
		}
		const subagents = value.subagents ?? {};
		if (!isObject(subagents)) throw new Error('"subagents" is not an object');
		subagents.defaultExtensions = change.after;
		value.subagents = subagents;
	}
	return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Write the changes, each file atomically, but only to files that still hold exactly the text the doctor
 * analysed: a file changed in between (pi saving its settings, say) is left alone and the run fails.
 */
export function applyChanges(
	changes: readonly SettingsChange[],
	analysed: ReadonlyMap<string, string | null>,
	view: FileView,
): void {
	const files = [...new Set(changes.map((c) => c.file))];
	const contents = files.map((file) => {
		const read = view.readText(file);
		if (read.state === "unreadable") {
			throw new CliError("io", `cannot read ${file} again before changing it: it ${read.problem}`);
		}
		const now = read.state === "text" ? read.text : null;
		if (!analysed.has(file) || analysed.get(file) !== now) {
			throw new CliError(
				"io",
				`${file} changed while the doctor was checking it; nothing was written. Run it again.`,
			);
		}
		return {
			file,
			text: changedSettingsText(
				now,
				changes.filter((c) => c.file === file),
			),
		};
	});
	for (const { file, text } of contents) {
		try {
			mkdirSync(dirname(file), { recursive: true });
			writeFileAtomic.sync(file, text);
		} catch (error) {
			throw new CliError("io", `cannot write ${file}: ${errorMessage(error)}`);
		}
	}
}
