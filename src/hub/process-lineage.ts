/**
 * Whether another local process descends from this one, read from `/proc` (Linux); where there is none the
 * answer is "no" and a child is shown by its stable id instead of a guessed name (adr/0025). Its command line is
 * not read from there: pi overwrites it with its process title.
 */
import { readFileSync } from "node:fs";

/** A launcher may start its child through a shell or a wrapper; deeper than this is not taken for its child. */
const MAX_HOPS = 8;

/** The parent pid of `pid`, or null when it cannot be read. */
function parentOf(pid: number): number | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		// `pid (comm) state ppid …`: the command name may hold spaces and parentheses, so read after the last `)`.
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		const ppid = Number(fields[1]);
		return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
	} catch {
		return null;
	}
}

/** True when `ancestor` is `pid` itself or one of its ancestors within a few hops. */
export function descendsFrom(pid: number, ancestor: number): boolean {
	let current: number | null = pid;
	for (let hop = 0; current !== null && hop <= MAX_HOPS; hop++) {
		if (current === ancestor) return true;
		if (current <= 1) return false;
		current = parentOf(current);
	}
	return false;
}
