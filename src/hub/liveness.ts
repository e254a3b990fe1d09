import { readFileSync } from "node:fs";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";

/** How often a waiting side checks that the other side still exists: well inside the 2 s promise. */
export const LIVENESS_INTERVAL_MS = 500;

/**
 * True when a process with this pid runs (EPERM means it exists but belongs to someone else). A zombie (killed,
 * not yet reaped by a parent that never waits) still answers signal 0 but is dead: Linux shows it as state Z.
 */
export function processAlive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
	} catch (error) {
		return fsErrorCode(error) === "EPERM";
	}
	return statFields(pid)?.[0] !== "Z";
}

/**
 * The kernel's start time of a process (Linux: field 22 of /proc/<pid>/stat), so a recycled pid is not taken
 * for the process we knew. Null where /proc is not available; the pid check alone then applies.
 */
export function processStartToken(pid: number): string | null {
	return statFields(pid)?.[19] ?? null;
}

/** The parent pid of `pid` (from /proc), or null where /proc cannot tell. */
export function parentPid(pid: number): number | null {
	const ppid = Number(statFields(pid)?.[1]);
	return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
}

/** Fields 3 onwards of /proc/<pid>/stat (state first), or null where /proc cannot tell. */
function statFields(pid: number): string[] | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		// The command name (field 2) may contain spaces and parentheses: count fields after its last ")".
		return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
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
