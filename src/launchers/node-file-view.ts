import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { fsErrorCode } from "../policy/fs-error-code.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { FileView, TextRead } from "./file-view.ts";

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
