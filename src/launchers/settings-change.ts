/**
 * The settings changes that put the gate where launchers' children load it, and the one writer that makes them:
 * `doctor --fix` and the delegation dialog's "Add the gate to <file> and continue" both write through it.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { applyEdits, type JSONPath, modify, type ParseError, parse } from "jsonc-parser";
import writeFileAtomic from "write-file-atomic";
import { errorMessage } from "../vocabulary/error-message.ts";
import { indentUnitOf } from "../vocabulary/indent-unit.ts";
import type { FileView } from "./file-view.ts";

/** The settings keys a fix may change: both are lists it only appends to. */
export type SettingsKey = "packages" | "subagents.defaultExtensions";

/** One change: the whole value of one key before and after (null before: the key is absent). */
export interface SettingsChange {
	readonly file: string;
	readonly key: SettingsKey;
	readonly before: readonly unknown[] | null;
	readonly after: readonly unknown[];
}

/** A change together with the file's text it was worked out from (null: the file did not exist). */
export interface PlannedChange {
	readonly change: SettingsChange;
	readonly analysedText: string | null;
}

/** Why a change was not written; nothing was written then. */
export class SettingsWriteError extends Error {}

const PATHS: Readonly<Record<SettingsKey, JSONPath>> = {
	packages: ["packages"],
	"subagents.defaultExtensions": ["subagents", "defaultExtensions"],
};

const BOM = "\uFEFF";

/**
 * The new text of a settings file: each changed key set to its new value by editing the text, so every other
 * byte (other keys, their order, the layout, any comment) stays; indented like the file (2 spaces when new).
 * `text` null: the file does not exist yet. Throws when the result would not be a JSON object pi can read.
 */
export function changedSettingsText(text: string | null, changes: readonly SettingsChange[]): string {
	const bom = text?.startsWith(BOM) ? BOM : "";
	let body = text === null ? "{}\n" : text.slice(bom.length);
	const indent = indentUnitOf(body);
	const formattingOptions = {
		insertSpaces: indent !== "\t",
		tabSize: indent.length,
		eol: body.includes("\r\n") ? "\r\n" : "\n",
	};
	for (const change of changes) {
		const value = [...change.after];
		body = applyEdits(body, modify(body, PATHS[change.key], value, { formattingOptions }));
	}
	const errors: ParseError[] = [];
	const value: unknown = parse(body, errors, { allowTrailingComma: false, disallowComments: false });
	if (errors.length > 0 || typeof value !== "object" || value === null || Array.isArray(value)) {
		throw new SettingsWriteError("the changed file would not be a JSON object");
	}
	return `${bom}${body}`;
}

/**
 * Write the changes, each file atomically, but only to files that still hold exactly the text they were worked
 * out from: a file changed in between (pi saving its settings, say) is left alone and the write fails. Every
 * file is checked and every new text made before the first is written.
 */
export function writeSettingsChanges(planned: readonly PlannedChange[], view: FileView): void {
	const files = [...new Set(planned.map((p) => p.change.file))];
	const contents = files.map((file) => {
		const mine = planned.filter((p) => p.change.file === file);
		const read = view.readText(file);
		if (read.state === "unreadable") {
			throw new SettingsWriteError(`cannot read ${file} again before changing it: it ${read.problem}`);
		}
		const now = read.state === "text" ? read.text : null;
		if (mine.some((p) => p.analysedText !== now)) {
			throw new SettingsWriteError(`${file} changed while it was being checked; nothing was written`);
		}
		try {
			return {
				file,
				text: changedSettingsText(
					now,
					mine.map((p) => p.change),
				),
			};
		} catch (error) {
			throw new SettingsWriteError(`cannot change ${file}: ${errorMessage(error)}`);
		}
	});
	for (const { file, text } of contents) {
		try {
			mkdirSync(dirname(file), { recursive: true });
			writeFileAtomic.sync(file, text);
		} catch (error) {
			throw new SettingsWriteError(`cannot write ${file}: ${errorMessage(error)}`);
		}
	}
}
