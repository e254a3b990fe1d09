/**
 * Opening the file the gate approved, and no other (adr/0014, adr/0017): pi's file tools run in pi's process,
 * outside any sandbox, and a plain open follows links. Between the gate's decision and the open, a command of the
 * same turn can replace the file by a link to `~/.bashrc`, or a directory on the way by a link to `~`. So the
 * path is opened one component at a time, each relative to the directory already open and none followed if it is
 * a link: every name is looked up in the directory the previous step opened, which no later rename can move.
 * The path walked is the real path the gate classified (it held no link then), so any link met now was put there
 * since, and the open fails.
 *
 * Node has no `openat`; on Linux `/proc/self/fd/<dir>/<name>` is the same lookup (the magic link is the open
 * directory itself, only `<name>` is resolved, and `O_NOFOLLOW` applies to it). Without `/proc` the final file
 * is opened with `O_NOFOLLOW` and checked afterwards (device and inode against the path, every parent its own
 * real path), which still never writes elsewhere through the handle, but may leave new empty directories or a new empty
 * file behind when a parent was swapped at that instant (adr/0014 says so).
 */
import { constants, existsSync, type Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, realpath } from "node:fs/promises";
import path from "node:path";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

/** A file that cannot be opened as the gate approved it; nothing was read or written through it. */
export class ContainmentError extends Error {
	override readonly name = "ContainmentError";
}

export interface OpenedFile {
	readonly handle: FileHandle;
	/** The file's real path: the approved one (nothing else is opened). */
	readonly realPath: string;
	readonly stats: Stats;
	/** How to name the open file to a function that takes a path (it reopens this very file, not the path). */
	readonly byDescriptor: string;
}

export interface OpenRequest {
	/** The real path the gate classified: absolute, normalized, no link on the way when it was classified. */
	readonly realPath: string;
	readonly access: "read" | "write";
	/** For a write: create the file, and the missing directories above it, when they do not exist. */
	readonly create?: boolean;
	/**
	 * A human approved writing this file with other names (hard links). Otherwise it may not have any:
	 * classification makes such a write human-only (adr/0014), so a second name seen now was made since.
	 */
	readonly otherNamesApproved?: boolean;
}

/** `/proc/self/fd` on Linux, where a directory's descriptor can stand for it in a path (checked once). */
let descriptorDirectory: string | null | undefined;
function procDescriptors(): string | null {
	if (descriptorDirectory === undefined) {
		descriptorDirectory =
			process.platform === "linux" && existsSync("/proc/self/fd") ? "/proc/self/fd" : null;
	}
	return descriptorDirectory;
}

/** Open `request.realPath` so that no link or swapped directory can make it another file. */
export async function openApprovedFile(request: OpenRequest): Promise<OpenedFile> {
	const { realPath } = request;
	if (!path.isAbsolute(realPath) || path.normalize(realPath) !== realPath || realPath.includes("\0")) {
		throw new ContainmentError(`${realPath} is not an absolute, normalized path`);
	}
	const proc = procDescriptors();
	const opened = proc === null ? await openThenCheck(request) : await openByWalk(request, proc);
	try {
		checkOpened(opened.stats, request);
	} catch (error) {
		await opened.handle.close();
		throw error;
	}
	const fdDirectory = proc ?? "/dev/fd";
	return { ...opened, realPath, byDescriptor: `${fdDirectory}/${opened.handle.fd}` };
}

function finalFlags(request: OpenRequest, create: boolean): number {
	// O_NONBLOCK: a FIFO put in the file's place must fail the open, not hang the tool; files ignore it.
	const base = (request.access === "read" ? O_RDONLY : O_WRONLY) | O_NOFOLLOW | O_NONBLOCK;
	return create ? base | O_CREAT | O_EXCL : base;
}

async function openByWalk(request: OpenRequest, proc: string): Promise<{ handle: FileHandle; stats: Stats }> {
	const names = request.realPath.split("/").filter((name) => name !== "");
	const last = names.pop();
	if (last === undefined) throw new ContainmentError("/ is a directory, not a file");
	let directory = await open("/", O_RDONLY | O_DIRECTORY);
	try {
		let walked = "";
		for (const name of names) {
			walked = `${walked}/${name}`;
			const next = await openDirectory(`${proc}/${directory.fd}/${name}`, walked, request.create === true);
			await directory.close();
			directory = next;
		}
		const handle = await openFinal(`${proc}/${directory.fd}/${last}`, request);
		return { handle, stats: await statOrClose(handle) };
	} finally {
		await directory.close();
	}
}

/** One directory on the way, never through a link; made when missing and `create` says so. */
async function openDirectory(where: string, walked: string, create: boolean): Promise<FileHandle> {
	try {
		return await open(where, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	} catch (error) {
		if (!(create && fsErrorCode(error) === "ENOENT")) throw walkError(error, walked);
	}
	try {
		// mkdir never follows a link in the last component: one that appears here makes it fail (EEXIST).
		await mkdir(where);
	} catch (error) {
		if (fsErrorCode(error) !== "EEXIST") throw walkError(error, walked);
	}
	try {
		return await open(where, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	} catch (error) {
		throw walkError(error, walked);
	}
}

/** The file itself: an existing one, or (for a write that may create) a new one that nothing else named first. */
async function openFinal(where: string, request: OpenRequest): Promise<FileHandle> {
	try {
		return await open(where, finalFlags(request, false));
	} catch (error) {
		if (!(request.create === true && fsErrorCode(error) === "ENOENT"))
			throw walkError(error, request.realPath);
	}
	try {
		return await open(where, finalFlags(request, true), 0o666);
	} catch (error) {
		throw walkError(error, request.realPath);
	}
}

/**
 * Without `/proc`: the file opened with `O_NOFOLLOW` (its directories followed as they are), then checked to be
 * the file at the approved path, whose parents are still their own real paths.
 */
async function openThenCheck(request: OpenRequest): Promise<{ handle: FileHandle; stats: Stats }> {
	const parent = path.dirname(request.realPath);
	if (request.create === true) await mkdir(parent, { recursive: true });
	const handle = await openFinal(request.realPath, request);
	const stats = await statOrClose(handle);
	try {
		const [now, parentReal] = await Promise.all([lstat(request.realPath), realpath(parent)]);
		if (parentReal !== parent || now.dev !== stats.dev || now.ino !== stats.ino) {
			throw new ContainmentError(
				`${request.realPath} changed while it was opened (a directory on the way was replaced)`,
			);
		}
	} catch (error) {
		await handle.close();
		throw error instanceof ContainmentError ? error : walkError(error, request.realPath);
	}
	return { handle, stats };
}

function checkOpened(stats: Stats, request: OpenRequest): void {
	if (!stats.isFile()) throw new ContainmentError(`${request.realPath} is not a regular file`);
	if (request.access === "write" && stats.nlink > 1 && request.otherNamesApproved !== true) {
		throw new ContainmentError(
			`${request.realPath} has ${stats.nlink} names (hard links), which were not there when the gate checked it: its other names could be any file`,
		);
	}
}

async function statOrClose(handle: FileHandle): Promise<Stats> {
	try {
		return await handle.stat();
	} catch (error) {
		await handle.close();
		throw error;
	}
}

function walkError(error: unknown, walked: string): Error {
	const code = fsErrorCode(error);
	if (code === "ELOOP" || code === "ENOTDIR" || code === "EEXIST") {
		return new ContainmentError(
			`${walked} is no longer what the gate checked: it became a link (or another kind of file) after the call was allowed`,
		);
	}
	return error instanceof Error ? error : new Error(String(error));
}
