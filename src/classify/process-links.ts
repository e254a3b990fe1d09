/**
 * `/proc/self/cwd`, `/proc/<pid>/root` and a directory reached through `/proc/<pid>/fd/N` are links whose
 * target depends on the process that follows them. The classifier resolves paths in pi's process, but a bash
 * command follows them in its own: `cd .git && echo x > /proc/self/cwd/config` writes `.git/config`, while the
 * classifier sees pi's cwd. A link in the project that points there does the same. Such a path is known only at
 * run time.
 */
import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";

const PROCESS_DIRECTORY = /^\/proc\/(?:[^/]+\/task\/)?[^/]+\/(?:cwd|root)$/;
/** `/proc/<pid>/fd/N` itself is the file open as fd N (system-paths.ts exempts it); a path below it is another story. */
const PROCESS_FD = /^\/proc\/(?:[^/]+\/task\/)?[^/]+\/fd\/[^/]+$/;
const MAX_HOPS = 40;

/**
 * Whether resolving `raw` (absolute, not normalised: `..` after a link climbs from its target) passes through such
 * a link. Follows links one component at a time as the kernel does; a path with more than MAX_HOPS links counts
 * as passing through one.
 */
export function passesThroughProcessLink(raw: string): boolean {
	const pending = raw.split("/");
	let current = "/";
	let hops = 0;
	while (pending.length > 0) {
		const name = pending.shift();
		if (name === undefined || name === "" || name === ".") continue;
		if (name === "..") {
			current = path.dirname(current);
			continue;
		}
		const next = path.join(current, name);
		if (PROCESS_DIRECTORY.test(next)) return true;
		if (PROCESS_FD.test(next)) return pending.some((rest) => rest !== "" && rest !== ".");
		const target = linkTarget(next);
		if (target === undefined) {
			current = next;
			continue;
		}
		hops += 1;
		if (hops > MAX_HOPS) return true;
		if (path.isAbsolute(target)) current = "/";
		pending.unshift(...target.split("/"));
	}
	return false;
}

function linkTarget(candidate: string): string | undefined {
	try {
		return lstatSync(candidate, { throwIfNoEntry: false })?.isSymbolicLink() === true
			? readlinkSync(candidate)
			: undefined;
	} catch {
		return undefined;
	}
}
