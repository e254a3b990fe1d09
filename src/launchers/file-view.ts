import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { errorMessage } from "../vocabulary/error-message.ts";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";

/** What reading a file gave: its text, nothing there, or something there that cannot be read as a file's text. */
export type TextRead =
	| { readonly state: "text"; readonly text: string }
	| { readonly state: "missing" }
	/** Too large is kept apart: a reader that would skip an unreadable file may not skip one it merely refused. */
	| { readonly state: "unreadable"; readonly problem: string; readonly tooLarge: boolean };

/**
 * The few read-only questions the launcher checks ask the file system. They take a FileView instead of calling
 * `node:fs`, so the checks stay synchronous, never throw, and run the same against the live tree (the gate, the
 * `doctor` command) or any tree a test builds.
 */
export interface FileView {
	/** The text of a regular file, or why there is none: each caller decides what an unreadable file means to it. */
	readText(path: string): TextRead;
	/** What is at `path` once symlinks are followed; null when nothing (or neither a file nor a directory) is. */
	kind(path: string): "file" | "dir" | null;
	/** The canonical path (symlinks resolved); null when nothing is at `path`, so two missing paths never compare equal. */
	realPath(path: string): string | null;
	/** The entry names of a directory, sorted; empty when it is missing or unreadable. */
	list(dir: string): readonly string[];
}

/** The text of a file when it could be read; null for anything else (missing, unreadable, too large). */
export function textOf(read: TextRead): string | null {
	return read.state === "text" ? read.text : null;
}

/** Settings, manifests and agent files are small; a larger file is refused rather than read whole. */
const MAX_TEXT_BYTES = 4 * 1024 * 1024;

/** Errors that mean "nothing there" (a dangling link included); every other one means "there, but unreadable". */
const ABSENT = new Set(["ENOENT", "ENOTDIR"]);

/** The live file system. Only `readText` tells errors apart; the other questions read any error as "not there". */
export const nodeFileView: FileView = {
	readText(path): TextRead {
		try {
			const stats = statSync(path);
			if (!stats.isFile()) return { state: "unreadable", problem: "is not a regular file", tooLarge: false };
			if (stats.size > MAX_TEXT_BYTES) {
				return { state: "unreadable", problem: `is larger than ${MAX_TEXT_BYTES} bytes`, tooLarge: true };
			}
			return { state: "text", text: readFileSync(path, "utf8") };
		} catch (error) {
			const code = fsErrorCode(error);
			if (code !== undefined && ABSENT.has(code)) return { state: "missing" };
			return { state: "unreadable", problem: `cannot be read: ${errorMessage(error)}`, tooLarge: false };
		}
	},
	kind(path) {
		try {
			const stats = statSync(path);
			return stats.isFile() ? "file" : stats.isDirectory() ? "dir" : null;
		} catch {
			return null;
		}
	},
	realPath(path) {
		try {
			return realpathSync(path);
		} catch {
			return null;
		}
	},
	list(dir) {
		try {
			return readdirSync(dir).sort();
		} catch {
			return [];
		}
	},
};
