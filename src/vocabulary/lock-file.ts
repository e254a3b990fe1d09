/**
 * A lock between processes of one user, as a file created exclusively next to what it guards (`O_CREAT|O_EXCL`
 * is atomic on local file systems; Node has no `flock`). A lock older than `staleMs` was left by a process that
 * died holding it, and is taken over. Used where several sessions change one file: the audit log's rotation
 * (adr/0005) and the rules saved into the user config (adr/0018).
 */
import { closeSync, openSync, statSync, unlinkSync } from "node:fs";

/** Take the lock now, or say it is held (by a live holder: a stale one is removed and taken). */
export function tryLock(lock: string, staleMs: number): boolean {
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			closeSync(openSync(lock, "wx", 0o600));
			return true;
		} catch {
			let age: number;
			try {
				age = Date.now() - statSync(lock).mtimeMs;
			} catch {
				continue; // Released meanwhile: try once more.
			}
			if (age < staleMs) return false;
			unlock(lock);
		}
	}
	return false;
}

export function unlock(lock: string): void {
	try {
		unlinkSync(lock);
	} catch {
		// Gone already (taken over as stale, or never made).
	}
}

/**
 * Run `work` holding the lock, waiting for it up to `waitMs`; throws when it stays held that long (the caller
 * says what could not be done, rather than doing it unlocked).
 */
export async function withLock<T>(
	lock: string,
	options: { readonly waitMs: number; readonly staleMs: number },
	work: () => Promise<T>,
): Promise<T> {
	const deadline = Date.now() + options.waitMs;
	while (!tryLock(lock, options.staleMs)) {
		if (Date.now() >= deadline) throw new Error(`another session held ${lock} for over ${options.waitMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
	}
	try {
		return await work();
	} finally {
		unlock(lock);
	}
}
