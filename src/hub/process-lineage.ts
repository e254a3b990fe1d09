/**
 * Whether another local process descends from this one, read from `/proc` (Linux); where there is none the
 * answer is "no" and a child is shown by its stable id instead of a guessed name (adr/0025). Its command line is
 * not read from there: pi overwrites it with its process title.
 */
import { parentPid } from "./liveness.ts";

/** A launcher may start its child through a shell or a wrapper; deeper than this is not taken for its child. */
const MAX_HOPS = 8;

/** True when `ancestor` is `pid` itself or one of its ancestors within a few hops. */
export function descendsFrom(pid: number, ancestor: number): boolean {
	let current: number | null = pid;
	for (let hop = 0; current !== null && hop <= MAX_HOPS; hop++) {
		if (current === ancestor) return true;
		if (current <= 1) return false;
		current = parentPid(current);
	}
	return false;
}
