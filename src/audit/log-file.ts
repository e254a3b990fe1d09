/**
 * The gate's log files (the audit log, the hub log), appended to and read in a directory other processes of the
 * same user can reach (adr/0005). A file is never trusted to be what its name says: a FIFO would block pi's main
 * thread (or a CLI command) for good, a link would carry the lines to its target (`~/.bashrc`), a device could
 * take them silently. So a log is opened without following a link and without blocking, and must turn out to be
 * a regular file; when appending, a line torn by a writer killed mid-append is closed before the next batch, so
 * that batch's first line is not glued to it.
 */
import {
	closeSync,
	constants,
	fstatSync,
	lstatSync,
	mkdirSync,
	openSync,
	readSync,
	type Stats,
	writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";

/** Read-write (to look at the last byte), appending, created 0600; never through a link, never blocking. */
const APPEND_FLAGS =
	constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Why a log could not take a batch: the file and what is wrong with it, in words a user can act on. */
export class AppendError extends Error {
	readonly file: string;
	constructor(file: string, why: string) {
		super(`${file} cannot be written: ${why}`);
		this.name = "AppendError";
		this.file = file;
	}
}

/**
 * Append `text` (whole lines) to `file` in one write, making the directory (0700) when it is missing. Throws an
 * `AppendError` when the file is not a regular file, or the write fails or is cut short (a full disk).
 */
export function appendLines(file: string, text: string): void {
	const fd = openForAppend(file);
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile()) throw new AppendError(file, `it is ${kindOf(stat)}, not a regular file`);
		const bytes = Buffer.from(endsTorn(fd, stat.size) ? `\n${text}` : text);
		let written: number;
		try {
			written = writeSync(fd, bytes);
		} catch (error) {
			throw new AppendError(file, describe(error));
		}
		if (written < bytes.length)
			throw new AppendError(file, `only ${written} of ${bytes.length} bytes were written`);
	} finally {
		closeSync(fd);
	}
}

/**
 * Open a log for reading: a regular file, never through a link, never blocking. A missing file throws the
 * system's ENOENT error (callers tell "no log yet" from a broken one); anything else that is not a regular file
 * throws an `Error` saying what it is.
 */
export function openLogForReading(file: string): number {
	const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	const stat = fstatSync(fd);
	if (stat.isFile()) return fd;
	closeSync(fd);
	throw new Error(`${file} is ${kindOf(stat)}, not a regular file`);
}

function openForAppend(file: string): number {
	// A FIFO or device is refused before it is opened: opening one can itself do something (a tty, a tape).
	const existing = lstatOrNull(file);
	if (existing !== null && !existing.isFile())
		throw new AppendError(file, `it is ${kindOf(existing)}, not a regular file`);
	try {
		return openSync(file, APPEND_FLAGS, 0o600);
	} catch (error) {
		if (fsErrorCode(error) !== "ENOENT") throw new AppendError(file, describe(error));
	}
	try {
		mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
		return openSync(file, APPEND_FLAGS, 0o600);
	} catch (error) {
		throw new AppendError(file, describe(error));
	}
}

/** Whether the file's last byte is not a line end: a batch cut short, by a kill or a full disk. */
function endsTorn(fd: number, size: number): boolean {
	if (size === 0) return false;
	const last = Buffer.alloc(1);
	return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 10;
}

function lstatOrNull(file: string): Stats | null {
	try {
		return lstatSync(file);
	} catch {
		return null;
	}
}

function kindOf(stat: Stats): string {
	if (stat.isSymbolicLink()) return "a symbolic link";
	if (stat.isDirectory()) return "a directory";
	if (stat.isFIFO()) return "a FIFO";
	if (stat.isSocket()) return "a socket";
	if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
	return "not a regular file";
}

function describe(error: unknown): string {
	switch (fsErrorCode(error)) {
		case "ELOOP":
			return "it is a symbolic link, not a regular file";
		case "ENOSPC":
			return "the disk is full (ENOSPC)";
		case "EDQUOT":
			return "the disk quota is exhausted (EDQUOT)";
		case "EISDIR":
			return "it is a directory, not a regular file";
		case "ENXIO":
			return "it is a FIFO nobody reads, not a regular file";
		default:
			return error instanceof Error ? error.message : String(error);
	}
}
