/**
 * Files other processes of this user read (inbox requests and responses, announcements, parked requests) live
 * in directories only this user can use, and appear whole or not at all: every such write goes through here.
 */
import { randomBytes } from "node:crypto";
import {
	closeSync,
	constants,
	fstatSync,
	linkSync,
	lstatSync,
	mkdirSync,
	openSync,
	readSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";
import type * as z from "../vocabulary/zod.ts";

export class UnsafeDirectoryError extends Error {
	override readonly name = "UnsafeDirectoryError";
}

/**
 * Create (or check) `dir` and every directory between `base` and it so that only this user can use them:
 * 0700, owned by us, not a symlink, not group- or world-writable. `base` itself (pi's agent dir) is created if
 * missing but not judged. An existing directory that fails the checks is refused with a message saying why,
 * never repaired silently: someone else may control it.
 */
export function ensurePrivateDir(dir: string, base: string): void {
	const rel = relative(base, dir);
	if (rel.startsWith("..") || isAbsolute(rel)) throw new UnsafeDirectoryError(`${dir} is not inside ${base}`);
	mkdirSync(base, { recursive: true });
	let current = base;
	for (const segment of rel.split(sep).filter((s) => s !== "")) {
		current = join(current, segment);
		try {
			mkdirSync(current, { mode: 0o700 });
		} catch (error) {
			if (fsErrorCode(error) !== "EEXIST") throw error;
		}
		checkPrivateDir(current);
	}
}

/** Throws UnsafeDirectoryError when `dir` is not a private directory of ours. */
export function checkPrivateDir(dir: string): void {
	const stat = lstatSync(dir);
	if (stat.isSymbolicLink()) throw new UnsafeDirectoryError(`${dir} is a symbolic link; refusing to use it`);
	if (!stat.isDirectory()) throw new UnsafeDirectoryError(`${dir} is not a directory`);
	const uid = process.getuid?.();
	if (uid !== undefined && stat.uid !== uid) {
		throw new UnsafeDirectoryError(
			`${dir} belongs to uid ${stat.uid}, not to this user (uid ${uid}); refusing to use it`,
		);
	}
	if ((stat.mode & 0o022) !== 0) {
		throw new UnsafeDirectoryError(
			`${dir} is writable by group or others (mode ${(stat.mode & 0o777).toString(8)}); refusing to use it`,
		);
	}
}

/**
 * Write `file` atomically, readable by this user alone, once each directory of `privateDirs` is checked to be
 * private: a directory someone else controls is refused, not written into.
 */
export function writePrivateFileSync(
	file: string,
	content: string,
	privateDirs: readonly string[],
	options: { readonly fsync?: boolean } = {},
): void {
	for (const dir of privateDirs) checkPrivateDir(dir);
	writeFileAtomic.sync(file, content, {
		mode: 0o600,
		...(options.fsync === undefined ? {} : { fsync: options.fsync }),
	});
}

/** `writePrivateFileSync`, without blocking; `fsync` when the file must survive a crash (a parked request). */
export async function writePrivateFile(
	file: string,
	content: string,
	privateDirs: readonly string[],
	options: { readonly fsync?: boolean } = {},
): Promise<void> {
	for (const dir of privateDirs) checkPrivateDir(dir);
	await writeFileAtomic(file, content, {
		mode: 0o600,
		...(options.fsync === undefined ? {} : { fsync: options.fsync }),
	});
}

export type ExclusiveWrite =
	| { readonly created: true }
	| { readonly created: false; readonly reason: "exists" };

/**
 * Create `file` with `content` only if nobody has: the content goes to a private temp file in the same
 * directory, which is then hard-linked to the final name. `link` fails with EEXIST when the name is taken, so
 * the first writer wins and a second one learns it, and a reader never sees a half-written file.
 */
export function createExclusive(file: string, content: string): ExclusiveWrite {
	const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
	try {
		writeFileSync(temp, content, { mode: 0o600, flag: "wx" });
		try {
			linkSync(temp, file);
		} catch (error) {
			if (fsErrorCode(error) === "EEXIST") {
				return { created: false, reason: "exists" };
			}
			throw error;
		}
		return { created: true };
	} finally {
		// Also after a failed write (ENOSPC): no temp file is left behind. Its removal failing changes nothing.
		try {
			unlinkSync(temp);
		} catch {
			// Never created, or already gone.
		}
	}
}

export type InboxRead =
	| { readonly ok: true; readonly text: string }
	| { readonly ok: false; readonly missing: boolean; readonly reason: string };

/**
 * Read a file another process put in an inbox, without trusting it: never through a symlink (O_NOFOLLOW),
 * only a regular file, only up to `maxBytes` (a larger file is refused unread), and never throwing.
 */
export function readInboxFile(file: string, maxBytes: number): InboxRead {
	let fd: number;
	try {
		fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	} catch (error) {
		const code = fsErrorCode(error);
		if (code === "ENOENT") return { ok: false, missing: true, reason: "the file is gone" };
		if (code === "ELOOP") return { ok: false, missing: false, reason: "the file is a symbolic link" };
		return { ok: false, missing: false, reason: `cannot open the file (${String(code ?? error)})` };
	}
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile()) return { ok: false, missing: false, reason: "not a regular file" };
		if (stat.size > maxBytes) {
			return {
				ok: false,
				missing: false,
				reason: `the file is ${stat.size} bytes, more than the ${maxBytes} allowed`,
			};
		}
		const buffer = Buffer.alloc(stat.size);
		let read = 0;
		while (read < stat.size) {
			const n = readSync(fd, buffer, read, stat.size - read, read);
			if (n === 0) break;
			read += n;
		}
		return { ok: true, text: buffer.subarray(0, read).toString("utf8") };
	} catch (error) {
		return { ok: false, missing: false, reason: `cannot read the file (${String(error)})` };
	} finally {
		closeSync(fd);
	}
}

/**
 * A JSON file from an inbox, parsed with `schema`; null when it is missing, unsafe to read, too big, not JSON
 * or not of that shape — every broken file counts as no file, and none of them throws.
 */
export function readInboxJson<T>(file: string, maxBytes: number, schema: z.ZodMiniType<T>): T | null {
	const read = readInboxFile(file, maxBytes);
	if (!read.ok) return null;
	let raw: unknown;
	try {
		raw = JSON.parse(read.text);
	} catch {
		return null;
	}
	const parsed = schema.safeParse(raw);
	return parsed.success ? parsed.data : null;
}
