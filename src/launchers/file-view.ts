/**
 * The few read-only questions the launcher checks ask the file system. They take a FileView instead of calling
 * `node:fs`, so the checks stay synchronous, never throw, and run the same against the live tree (the gate, the
 * `doctor` command) or any tree a test builds.
 */
export interface FileView {
	/** The text of a regular file; null when it is missing, unreadable or too large to be a config file. */
	readText(path: string): string | null;
	/** What is at `path` once symlinks are followed; null when nothing is. */
	kind(path: string): "file" | "dir" | null;
	/** The canonical path (symlinks resolved); null when it does not exist. */
	realPath(path: string): string | null;
	/** The entry names of a directory; empty when it is missing or unreadable. */
	list(dir: string): readonly string[];
}
