import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import type { FileView } from "./file-view.ts";

/** Settings, manifests and agent files are small; a larger file is not one of them and is not read. */
const MAX_TEXT_BYTES = 1024 * 1024;

/** The live file system. Every error reads as "not there": the checks then count the entry as not loading the gate. */
export const nodeFileView: FileView = {
	readText(path) {
		try {
			const stats = statSync(path);
			if (!stats.isFile() || stats.size > MAX_TEXT_BYTES) return null;
			return readFileSync(path, "utf8");
		} catch {
			return null;
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
			return readdirSync(dir);
		} catch {
			return [];
		}
	},
};
