/**
 * The listings the project search keeps between runs (adr/0017): kept only for a directory whose change time had
 * settled, and never trusted once the directory changed — whatever its modification time is set back to. Real
 * directories; only the clock the listings compare with is moved, so a directory made now counts as settled.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DirectoryListings, SETTLED_MS } from "../../src/sandbox/directory-listings.ts";
import { findProtectedPlaces } from "../../src/sandbox/protected-places.ts";
import { tempDir } from "../policy/fixtures.ts";

/** A clock past the settling time of anything made before the test's first step. */
const later = () => Date.now() + SETTLED_MS * 5;
const names = (entries: readonly { name: string }[]) => entries.map((entry) => entry.name).sort();

describe("directory listings kept between searches", () => {
	it("a settled directory's listing is kept, and read again once an entry is added", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "a.txt"), "");
		const listings = new DirectoryListings(later);
		const first = listings.entries(dir);
		expect(listings.entries(dir)).toBe(first);
		mkdirSync(join(dir, ".git"));
		expect(names(listings.entries(dir))).toEqual([".git", "a.txt"]);
	});

	it("setting the modification time back does not hide a new entry: the change time moved", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "a.txt"), "");
		// To the nanosecond, as a program in the sandbox could set it (`touch -m -d @<seconds.nanoseconds>`).
		const { mtimeNs } = statSync(dir, { bigint: true });
		const stamp = `@${mtimeNs / 1_000_000_000n}.${String(mtimeNs % 1_000_000_000n).padStart(9, "0")}`;
		const listings = new DirectoryListings(later);
		listings.entries(dir);
		mkdirSync(join(dir, ".agents"));
		execFileSync("touch", ["-m", "-d", stamp, dir]);
		expect(statSync(dir, { bigint: true }).mtimeNs).toBe(mtimeNs);
		expect(names(listings.entries(dir))).toEqual([".agents", "a.txt"]);
	});

	it("a directory changed less than the settling time ago is read at every search", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "a.txt"), "");
		const listings = new DirectoryListings();
		const first = listings.entries(dir);
		expect(listings.entries(dir)).not.toBe(first);
		expect(names(listings.entries(dir))).toEqual(["a.txt"]);
	});

	it("the search with kept listings finds a repository made after the last search", () => {
		const project = tempDir();
		mkdirSync(join(project, "pkg", "src"), { recursive: true });
		const listings = new DirectoryListings(later);
		const search = { project, homeDir: tempDir(), linkTargets: [], listings };
		const before = findProtectedPlaces(search);
		expect("places" in before && before.places.map((p) => p.path)).not.toContain(
			join(project, "pkg", ".git"),
		);
		mkdirSync(join(project, "pkg", ".git"));
		const after = findProtectedPlaces(search);
		expect("places" in after && after.places.map((p) => p.path)).toContain(join(project, "pkg", ".git"));
	});
});
