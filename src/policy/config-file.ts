/**
 * A config file as the policy sees it: read and parsed, missing, or not read because pi does not trust the
 * project.
 */
import {
	closeSync,
	constants,
	fstatSync,
	lstatSync,
	openSync,
	readlinkSync,
	readSync,
	type Stats,
	statSync,
} from "node:fs";
import { dirname } from "node:path";
import { errorMessage } from "../vocabulary/error-message.ts";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";
import { configFileError } from "./config-error.ts";
import type { ConfigScope } from "./config-schema.ts";
import {
	type InvalidConfig,
	MAX_CONFIG_BYTES,
	type ParseConfigResult,
	type ParsedConfig,
	parseConfigText,
} from "./parse-config-text.ts";

export interface MissingConfig {
	readonly status: "missing";
	readonly file: string;
	readonly scope: ConfigScope;
}

/** A project file that exists or not, but is not read because pi does not trust the project. */
export interface UntrustedConfig {
	readonly status: "not-trusted";
	readonly file: string;
	readonly scope: "project";
}

export type ConfigFileState = ParsedConfig | InvalidConfig | MissingConfig | UntrustedConfig;

/** Reads a file's text; injectable so callers (and tests) can observe how often files are actually read. */
export type ReadText = (file: string) => string;

/**
 * A config file's text, read only when it is a regular file, and at most one byte past `MAX_CONFIG_BYTES`. A repository controls
 * its project file: a FIFO there would block the session at its first tool call, a link to /dev/tty would read
 * the keys the user types, one to /dev/zero would fill memory. Opened without blocking, then judged by what
 * was opened (not by a look at the path before, which a swap could outrun); anything else throws, and the
 * policy fails closed on it.
 */
export const readTextFromDisk: ReadText = (file) => {
	const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile())
			throw new Error(`${file} is not a regular file (a FIFO, device, socket or directory)`);
		// One byte past the cap is enough for the parser to report the size as the problem; a file that grew
		// since fstat is cut there, and fails to parse.
		const buffer = Buffer.alloc(Math.min(stat.size, MAX_CONFIG_BYTES) + 1);
		let length = 0;
		while (length < buffer.length) {
			const read = readSync(fd, buffer, length, buffer.length - length, null);
			if (read === 0) break;
			length += read;
		}
		return buffer.toString("utf8", 0, length);
	} finally {
		closeSync(fd);
	}
};

/**
 * A missing file is no file; any other failure to read, a dangling link or a file where a directory should be
 * included, is an invalid file (the policy fails closed).
 */
export function readConfigFile(
	file: string,
	scope: ConfigScope,
	readText: ReadText = readTextFromDisk,
): ParseConfigResult | MissingConfig {
	let text: string;
	try {
		text = readText(file);
	} catch (error) {
		const code = fsErrorCode(error);
		const broken = code === "ENOENT" || code === "ENOTDIR" ? brokenConfigPath(file) : undefined;
		if (broken === null) return { status: "missing", file, scope };
		const problem = `cannot read the file: ${broken ?? errorMessage(error)}`;
		return {
			status: "invalid",
			file,
			scope,
			error: configFileError(file, scope, [{ jsonPath: "", line: null, problem }]),
		};
	}
	return parseConfigText(text, file, scope);
}

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
		if (entry === undefined) {
			const parent = dirname(path);
			if (parent === path) return null;
			path = parent;
			continue;
		}
		// Not a link: what lstat saw is what is there, so no second look (this runs at every call, adr/0028).
		if (!entry.isSymbolicLink() && (path === file || entry.isDirectory())) return null;
		return problemWith(path, file, entry.isSymbolicLink());
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
