import { lstatSync, readlinkSync, type Stats, statSync } from "node:fs";
import { dirname } from "node:path";
import { errorMessage } from "../vocabulary/error-message.ts";
import { fsErrorCode } from "./fs-error-code.ts";

/**
 * Whether a config file that could not be opened is truly absent. It is absent only when the nearest thing on
 * its path that exists is a directory: then nobody wrote a config. A dangling symbolic link where the file or a
 * directory should be, or a file where a directory should be, is a config someone meant to have that cannot be
 * read, and the policy fails closed on it instead of quietly running without it.
 *
 * Returns null when the file is absent, else the problem in words.
 */
export function brokenConfigPath(file: string): string | null {
	try {
		return nearestExisting(file);
	} catch (error) {
		return `cannot look at the path of ${file}: ${errorMessage(error)}`;
	}
}

function nearestExisting(file: string): string | null {
	let path = file;
	for (;;) {
		const entry = entryAt(path);
		if (entry !== undefined) return problemWith(path, file, entry.isSymbolicLink());
		const parent = dirname(path);
		if (parent === path) return null;
		path = parent;
	}
}

function problemWith(path: string, file: string, isLink: boolean): string | null {
	const target = statSync(path, { throwIfNoEntry: false });
	if (isLink && target === undefined) {
		return `${path} is a symbolic link to ${readlinkSync(path)}, which does not exist`;
	}
	if (path === file) return null;
	if (target?.isDirectory() === true) return null;
	return `${path} is not a directory, but the config ${file} should be inside it`;
}

/** What is at `path` itself (a link is not followed); undefined when nothing is, a file on the way included. */
function entryAt(path: string): Stats | undefined {
	try {
		return lstatSync(path, { throwIfNoEntry: false });
	} catch (error) {
		if (fsErrorCode(error) === "ENOTDIR") return undefined;
		throw error;
	}
}
