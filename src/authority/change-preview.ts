/**
 * What an `edit` or `write` call would change, for its dialog: a unified diff against the file on disk as it is
 * when the dialog opens, or the first lines and size of a new file. Presentation only: the action's hash, tier
 * and audit preview never depend on it, and the file may still change before the call runs.
 *
 * Secrets are redacted as in every preview (`redactSecrets`), after the diff is taken so a changed secret still
 * shows as a changed line; control characters are made visible so file content cannot redraw the dialog.
 */
import { readFile, stat } from "node:fs/promises";
import { structuredPatch } from "diff";
import type { ClassifiedAction } from "../classify/action.ts";
import { editInput, writeInput } from "../classify/builtin-tools.ts";
import { redactSecrets } from "../classify/preview.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";
import { visibleText } from "./visible-text.ts";

/** One line of the change as shown: a diff line, a hunk header, or a note about what could not be shown. */
export interface ChangeLine {
	readonly kind: "added" | "removed" | "context" | "hunk" | "note";
	readonly text: string;
}

export interface ChangePreview {
	/** One line: `2 lines removed, 3 added` or `new file, 1234 bytes, 56 lines`. */
	readonly summary: string;
	/** The whole change, up to `CHANGE_LINES_MAX` lines (a note says what was left out). */
	readonly lines: readonly ChangeLine[];
}

/** A file larger than this is not read: the edits are shown on their own, without the file around them. */
export const FILE_READ_MAX = 1024 * 1024;
/** The whole diff the TUI can expand to; beyond it a note counts what is left out. */
export const CHANGE_LINES_MAX = 2000;
/** A longer line is cut (after redaction) and says how long it was. */
export const CHANGE_LINE_CHARS_MAX = 400;
const CONTEXT_LINES = 3;
/** Past this the diff gives up (a huge rewrite): the edits are shown on their own instead. */
const DIFF_TIMEOUT_MS = 500;
/** Bytes looked at for a NUL to call a file binary (as git does). */
const BINARY_SNIFF_BYTES = 8000;

/** Undefined for any other tool, or an input that is not a well-formed edit or write (its JSON is shown then). */
export async function previewChange(action: ClassifiedAction): Promise<ChangePreview | undefined> {
	const target = action.parts[0]?.paths.find((touch) => touch.access === "write")?.absolute;
	if (target === undefined) return undefined;
	if (action.tool === "edit") {
		const parsed = editInput().safeParse(action.input);
		return parsed.success ? previewEdit(await readTarget(target), parsed.data.edits) : undefined;
	}
	if (action.tool === "write") {
		const parsed = writeInput().safeParse(action.input);
		return parsed.success ? previewWrite(await readTarget(target), parsed.data.content) : undefined;
	}
	return undefined;
}

/** The file on disk, as far as the dialog needs it. */
type OnDisk =
	| { readonly kind: "text"; readonly content: string }
	| { readonly kind: "missing" }
	| { readonly kind: "unreadable"; readonly why: string };

async function readTarget(file: string): Promise<OnDisk> {
	try {
		const info = await stat(file);
		// A FIFO or device would block or never end: only a regular file is read.
		if (!info.isFile()) return { kind: "unreadable", why: "it is not a regular file" };
		if (info.size > FILE_READ_MAX)
			return { kind: "unreadable", why: `it is ${bytes(info.size)}, too large to diff` };
		const data = await readFile(file);
		if (data.subarray(0, BINARY_SNIFF_BYTES).includes(0))
			return { kind: "unreadable", why: `it is a binary file of ${bytes(data.length)}` };
		return { kind: "text", content: data.toString("utf8") };
	} catch (error) {
		if (fsErrorCode(error) === "ENOENT") return { kind: "missing" };
		return { kind: "unreadable", why: `it cannot be read: ${errorMessage(error)}` };
	}
}

function previewWrite(disk: OnDisk, content: string): ChangePreview {
	const size = `${bytes(Buffer.byteLength(content, "utf8"))}, ${plural(lineCount(content), "line")}`;
	if (content.includes("\0")) {
		return {
			summary: `binary content, ${size}`,
			lines: [{ kind: "note", text: "(binary content is not shown)" }],
		};
	}
	const added = splitLines(normalized(content)).map((text): ChangeLine => ({ kind: "added", text }));
	if (disk.kind === "missing") {
		return finished(`new file, ${size}`, added);
	}
	if (disk.kind === "unreadable") {
		const note = { kind: "note", text: `(replaces a file not shown: ${disk.why})` } as const;
		return finished(`replaces the file with ${size}`, [note, ...added]);
	}
	const diffed = unifiedDiff(normalized(disk.content), normalized(content));
	if (diffed === undefined) {
		return finished(`rewrites the file: ${size}`, [
			{ kind: "note", text: "(too many changes to diff: the new content follows)" },
			...added,
		]);
	}
	return finished(diffSummary(diffed), diffed);
}

interface Edit {
	readonly oldText: string;
	readonly newText: string;
}

function previewEdit(disk: OnDisk, edits: readonly Edit[]): ChangePreview {
	const count = plural(edits.length, "edit");
	if (disk.kind !== "text") {
		const why = disk.kind === "missing" ? "the file does not exist" : disk.why;
		return finished(`${count}, shown without the file (${why})`, editsOnTheirOwn(edits));
	}
	const before = normalized(disk.content);
	const after = appliedEdits(before, edits);
	if (typeof after !== "string") {
		return finished(`${count}, shown without the file (${after.why})`, editsOnTheirOwn(edits));
	}
	const diffed = unifiedDiff(before, after);
	if (diffed === undefined) {
		return finished(`${count}, shown on their own (too many changes to diff)`, editsOnTheirOwn(edits));
	}
	return finished(diffSummary(diffed), diffed);
}

/**
 * The edits applied as pi applies them when each old text occurs exactly once and none overlap. pi may still
 * find a text this does not (it also matches with whitespace and quotes normalized), so a miss is not an error
 * here: the edits are then shown on their own.
 */
function appliedEdits(content: string, edits: readonly Edit[]): string | { readonly why: string } {
	const spans: { start: number; end: number; newText: string }[] = [];
	for (const [index, edit] of edits.entries()) {
		const oldText = normalized(edit.oldText);
		const start = oldText === "" ? -1 : content.indexOf(oldText);
		const which = edits.length === 1 ? "its old text" : `the old text of edit ${index + 1}`;
		if (start === -1) return { why: `${which} is not in the file as given` };
		if (content.indexOf(oldText, start + 1) !== -1) return { why: `${which} occurs more than once` };
		spans.push({ start, end: start + oldText.length, newText: normalized(edit.newText) });
	}
	spans.sort((a, b) => a.start - b.start);
	let out = "";
	let at = 0;
	for (const span of spans) {
		if (span.start < at) return { why: "two edits overlap" };
		out += content.slice(at, span.start) + span.newText;
		at = span.end;
	}
	return out + content.slice(at);
}

/** Each edit as a hunk of its own: its old lines removed, its new lines added. */
function editsOnTheirOwn(edits: readonly Edit[]): ChangeLine[] {
	return edits.flatMap((edit, index): ChangeLine[] => [
		{ kind: "hunk", text: `@@ edit ${index + 1} of ${edits.length} @@` },
		...splitLines(normalized(edit.oldText)).map((text): ChangeLine => ({ kind: "removed", text })),
		...splitLines(normalized(edit.newText)).map((text): ChangeLine => ({ kind: "added", text })),
	]);
}

/** Undefined when the diff takes too long (jsdiff's own timeout). */
function unifiedDiff(before: string, after: string): ChangeLine[] | undefined {
	const patch = structuredPatch("", "", before, after, undefined, undefined, {
		context: CONTEXT_LINES,
		timeout: DIFF_TIMEOUT_MS,
	});
	if (patch === undefined) return undefined;
	if (patch.hunks.length === 0) return [{ kind: "note", text: "(no change: the content is the same)" }];
	return patch.hunks.flatMap((hunk): ChangeLine[] => [
		{
			kind: "hunk",
			text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
		},
		...hunk.lines.map(diffLine),
	]);
}

function diffLine(line: string): ChangeLine {
	const text = line.slice(1);
	switch (line[0]) {
		case "+":
			return { kind: "added", text };
		case "-":
			return { kind: "removed", text };
		case "\\":
			return { kind: "note", text: line };
		default:
			return { kind: "context", text };
	}
}

function diffSummary(lines: readonly ChangeLine[]): string {
	const removed = lines.filter((line) => line.kind === "removed").length;
	const added = lines.filter((line) => line.kind === "added").length;
	return `${plural(removed, "line")} removed, ${added} added`;
}

/**
 * Redacted, made visible, cut. Redaction runs over each run of same-kind lines at once, so a private key spread
 * over several added lines is recognised whole (it becomes one line; redaction never adds lines). A line is cut
 * to twice its shown length before redaction and to its shown length after it, as `previewAction` does, so a
 * secret is never cut into a piece the patterns no longer recognise.
 */
function finished(summary: string, raw: readonly ChangeLine[]): ChangePreview {
	const kept = raw.slice(0, CHANGE_LINES_MAX);
	const lines: ChangeLine[] = [];
	for (let start = 0; start < kept.length; ) {
		const kind = kept[start]?.kind ?? "note";
		let end = start;
		while (end < kept.length && kept[end]?.kind === kind) end++;
		const run = kept.slice(start, end).map((line) => precut(line.text));
		for (const text of redactSecrets(run.join("\n")).split("\n"))
			lines.push({ kind, text: visibleLine(text) });
		start = end;
	}
	const left = raw.length - kept.length;
	if (left > 0) lines.push({ kind: "note", text: `… ${plural(left, "more line")} not shown` });
	return { summary, lines };
}

function precut(text: string): string {
	return text.length > CHANGE_LINE_CHARS_MAX * 2 ? `${text.slice(0, CHANGE_LINE_CHARS_MAX * 2)}…` : text;
}

/** The line as `visibleText` shows it (no control character reaches the terminal), cut to its shown length. */
function visibleLine(text: string): string {
	const shown = visibleText(text);
	return shown.length <= CHANGE_LINE_CHARS_MAX
		? shown
		: `${shown.slice(0, CHANGE_LINE_CHARS_MAX)}… (line cut)`;
}

/** pi's edit tool works on LF text without a BOM, and so does the diff. */
function normalized(text: string): string {
	return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

function splitLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (text.endsWith("\n")) lines.pop();
	return lines;
}

function lineCount(text: string): number {
	return splitLines(text).length;
}

function plural(count: number, word: string): string {
	return `${count} ${count === 1 ? word : `${word}s`}`;
}

function bytes(count: number): string {
	return `${count} ${count === 1 ? "byte" : "bytes"}`;
}
