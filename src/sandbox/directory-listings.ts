/**
 * Directory listings kept between the project searches of one session (protected-places.ts, adr/0017): the search
 * runs before and after every writable command, and reading every directory of a large project is most of its
 * cost (~40 ms at 5,000 directories, against ~7 ms to `lstat` them). A listing is reused only while the
 * directory's change time says nothing was added, removed or renamed in it since it was read:
 *
 * - every change to a directory's entries sets its ctime (and mtime) to the time of the change, and no program
 *   can set a ctime back (`touch -d` sets the mtime, and the ctime to now); so equal device, inode, ctime and
 *   mtime mean the same entries — except within one tick of the clock, where two changes can share a ctime;
 * - so a listing is kept only when its directory's ctime lay at least `SETTLED_MS` before it was read: a
 *   directory changed less than that before a search is read again at every search until it settles.
 *
 * What the entries hold (a gitfile's target, a config's hooksPath) is never kept: the search reads it each time.
 */
import { type BigIntStats, type Dirent, lstatSync, readdirSync } from "node:fs";

/** How long a directory must have been unchanged before its listing may be kept (many clock ticks). */
export const SETTLED_MS = 1_000;
/** Listings kept at most; past it the oldest go (the search's own cap is 10,000 directories). */
const MAX_LISTINGS = 20_000;

interface Listing {
	readonly dev: bigint;
	readonly ino: bigint;
	readonly ctimeNs: bigint;
	readonly mtimeNs: bigint;
	readonly entries: readonly Dirent[];
}

export class DirectoryListings {
	private readonly listings = new Map<string, Listing>();
	private readonly now: () => number;

	/** `now`: the wall clock in ms (the clock the file system stamps change times with). */
	constructor(now: () => number = Date.now) {
		this.now = now;
	}

	/**
	 * The entries of `directory` (readdir's, with types): a kept listing while the directory is unchanged since,
	 * else a fresh one. Throws as `readdirSync` does (the search skips what it cannot read).
	 */
	entries(directory: string): readonly Dirent[] {
		const before = lstatQuietly(directory);
		const kept = this.listings.get(directory);
		if (before !== undefined && kept !== undefined && sameDirectory(kept, before)) return kept.entries;
		this.listings.delete(directory);
		const readAt = this.now();
		const entries = readdirSync(directory, { withFileTypes: true });
		// Kept only when the directory was the same before and after the read, and had settled by then.
		const after = lstatQuietly(directory);
		if (
			before !== undefined &&
			after !== undefined &&
			before.isDirectory() &&
			sameStats(before, after) &&
			readAt - Number(before.ctimeNs / 1_000_000n) >= SETTLED_MS
		) {
			if (this.listings.size >= MAX_LISTINGS) {
				const oldest = this.listings.keys().next().value;
				if (oldest !== undefined) this.listings.delete(oldest);
			}
			this.listings.set(directory, {
				dev: before.dev,
				ino: before.ino,
				ctimeNs: before.ctimeNs,
				mtimeNs: before.mtimeNs,
				entries,
			});
		}
		return entries;
	}
}

function sameDirectory(kept: Listing, now: BigIntStats): boolean {
	return (
		now.isDirectory() &&
		kept.dev === now.dev &&
		kept.ino === now.ino &&
		kept.ctimeNs === now.ctimeNs &&
		kept.mtimeNs === now.mtimeNs
	);
}

function sameStats(a: BigIntStats, b: BigIntStats): boolean {
	return a.dev === b.dev && a.ino === b.ino && a.ctimeNs === b.ctimeNs && a.mtimeNs === b.mtimeNs;
}

function lstatQuietly(path: string): BigIntStats | undefined {
	try {
		return lstatSync(path, { bigint: true, throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}
