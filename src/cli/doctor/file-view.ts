import { readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { fsErrorCode } from "../../policy/fs-error-code.ts";
import { readCappedText } from "../read-capped-text.ts";

export type PathKind = "file" | "directory" | "missing" | "other";

/**
 * The read-only view of the file system the doctor's detection works on. Detection takes it as a parameter so it
 * stays a pure function of what it reads (and can be moved to a shared module unchanged).
 */
export interface FileView {
	/** The text of a file; null when nothing is there. Throws when it exists but cannot be read, or is too big. */
	readText(path: string): string | null;
	/** What is at `path`, following symlinks; a dangling link is `missing`. */
	kind(path: string): PathKind;
	/** The path with every symlink resolved; the path itself when it cannot be resolved. */
	realPath(path: string): string;
	/** Entries of a directory (kinds follow symlinks); empty when `dir` is not a readable directory. */
	list(dir: string): readonly { readonly name: string; readonly kind: PathKind }[];
}

/** Settings, manifests and agent files are small; anything bigger is refused rather than read whole. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

export function nodeFileView(): FileView {
	const kind = (path: string): PathKind => {
		try {
			const stats = statSync(path);
			return stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
		} catch {
			return "missing";
		}
	};
	return {
		readText(path) {
			let read: { text: string; truncated: boolean };
			try {
				read = readCappedText(path, MAX_READ_BYTES);
			} catch (error) {
				if (fsErrorCode(error) === "ENOENT") return null;
				throw error;
			}
			if (read.truncated) throw new Error(`larger than ${MAX_READ_BYTES} bytes`);
			return read.text;
		},
		kind,
		realPath(path) {
			try {
				return realpathSync(path);
			} catch {
				return path;
			}
		},
		list(dir) {
			try {
				return readdirSync(dir)
					.sort()
					.map((name) => ({ name, kind: kind(join(dir, name)) }));
			} catch {
				return [];
			}
		},
	};
}
