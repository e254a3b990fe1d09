import { readFileSync } from "node:fs";

/** How often a waiting side checks that the other side still exists: well inside the 2 s promise. */
export const LIVENESS_INTERVAL_MS = 500;

/** True when a process with this pid exists (EPERM means it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return typeof error === "object" && error !== null && Reflect.get(error, "code") === "EPERM";
	}
}

/**
 * The kernel's start time of a process (Linux: field 22 of /proc/<pid>/stat), so a recycled pid is not taken
 * for the process we knew. Null where /proc is not available; the pid check alone then applies.
 */
export function processStartToken(pid: number): string | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		// The command name (field 2) may contain spaces and parentheses: count fields after its last ")".
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		return fields[19] ?? null;
	} catch {
		return null;
	}
}

/** Alive, and the same process as when `token` was taken (when a token was taken). */
export function sameProcessAlive(pid: number, token: string | null): boolean {
	if (!processAlive(pid)) return false;
	if (token === null) return true;
	const now = processStartToken(pid);
	return now === null || now === token;
}
