import { lstatSync, mkdirSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";

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
			if (!isCode(error, "EEXIST")) throw error;
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

export function isCode(error: unknown, code: string): boolean {
	return typeof error === "object" && error !== null && Reflect.get(error, "code") === code;
}
