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
