/**
 * The one-line-ish description of an action shown in dialogs and logs, with secrets redacted and length capped.
 */
import { canonicalJson } from "./action-hash.ts";
import {
	bashInput,
	editInput,
	findInput,
	grepInput,
	lsInput,
	readInput,
	writeInput,
} from "./builtin-tools.ts";
import { redactSecrets } from "./redact.ts";

/** Bash commands are shown in full up to this length (they are what the human approves). */
export const BASH_PREVIEW_MAX = 8192;
export const PREVIEW_MAX = 2048;

export function previewAction(tool: string, input: Readonly<Record<string, unknown>>): string {
	const described = describe(tool, input);
	if (described !== undefined) return capped(described.text, described.max);
	let json: string;
	try {
		json = canonicalJson(input);
	} catch {
		json = "(input that cannot be shown)";
	}
	return capped(`${tool} ${json}`, PREVIEW_MAX);
}

/** Redacts before cutting, so a secret is never cut into a piece the patterns no longer recognise. */
function capped(text: string, max: number): string {
	const redacted = redactSecrets(text.length > max * 2 ? text.slice(0, max * 2) : text);
	if (redacted.length <= max && text.length <= max * 2) return redacted;
	return `${redacted.slice(0, max)}… (${text.length} characters in all)`;
}

function describe(
	tool: string,
	input: Readonly<Record<string, unknown>>,
): { text: string; max: number } | undefined {
	switch (tool) {
		case "bash": {
			const parsed = bashInput().safeParse(input);
			return parsed.success ? { text: parsed.data.command, max: BASH_PREVIEW_MAX } : undefined;
		}
		case "read": {
			const parsed = readInput().safeParse(input);
			if (!parsed.success) return undefined;
			return {
				text: `${parsed.data.path}${readRange(parsed.data.offset, parsed.data.limit)}`,
				max: PREVIEW_MAX,
			};
		}
		case "write": {
			const parsed = writeInput().safeParse(input);
			if (!parsed.success) return undefined;
			const { path, content } = parsed.data;
			const bytes = Buffer.byteLength(content, "utf8");
			const lines = lineCount(content);
			return {
				text: `${path} (${bytes} bytes, ${lines} ${lines === 1 ? "line" : "lines"})`,
				max: PREVIEW_MAX,
			};
		}
		case "edit": {
			const parsed = editInput().safeParse(input);
			if (!parsed.success) return undefined;
			const { path, edits } = parsed.data;
			const added = edits.reduce((sum, edit) => sum + lineCount(edit.newText), 0);
			const removed = edits.reduce((sum, edit) => sum + lineCount(edit.oldText), 0);
			const count = `${edits.length} ${edits.length === 1 ? "edit" : "edits"}`;
			return { text: `${path}: ${count}, +${added}/-${removed} lines`, max: PREVIEW_MAX };
		}
		case "grep": {
			const parsed = grepInput().safeParse(input);
			if (!parsed.success) return undefined;
			const { pattern, path, glob } = parsed.data;
			const text = `grep ${JSON.stringify(pattern)} in ${path ?? "."}${glob === undefined ? "" : ` (${glob})`}`;
			return { text, max: PREVIEW_MAX };
		}
		case "find": {
			const parsed = findInput().safeParse(input);
			if (!parsed.success) return undefined;
			return {
				text: `find ${JSON.stringify(parsed.data.pattern)} in ${parsed.data.path ?? "."}`,
				max: PREVIEW_MAX,
			};
		}
		case "ls": {
			const parsed = lsInput().safeParse(input);
			return parsed.success ? { text: `ls ${parsed.data.path ?? "."}`, max: PREVIEW_MAX } : undefined;
		}
		default:
			return undefined;
	}
}

function readRange(offset: number | undefined, limit: number | undefined): string {
	if (offset !== undefined && limit !== undefined) return ` (lines ${offset}–${offset + limit - 1})`;
	if (offset !== undefined) return ` (from line ${offset})`;
	if (limit !== undefined) return ` (first ${limit} lines)`;
	return "";
}

function lineCount(text: string): number {
	if (text === "") return 0;
	const lines = text.split("\n").length;
	return text.endsWith("\n") ? lines - 1 : lines;
}
