/**
 * Whether a name as written reaches a guarded entry, on the file system it lands on (adr/0014). On a
 * case-insensitive file system (macOS and Windows by default, a vfat stick, an ext4 directory with casefold)
 * `.GIT/hooks/x` writes `.git/hooks/x` and `.PI/settings.json` writes `.pi/settings.json`: an exact comparison of
 * names would miss them. Case-insensitivity belongs to a directory (ext4's casefold is set per directory), so it
 * is asked of the directory the name lands in, and only for a name that differs from a guarded one by case alone:
 * the exact name costs nothing, and an unrelated name never touches the disk.
 */
import { lstatSync, type Stats } from "node:fs";
import path from "node:path";

/** How a directory compares names: found by looking, or unknown (nothing there to compare). */
export type NameComparison = "exact" | "case-insensitive" | "unknown";

/**
 * Whether `name` in `directory` names the same entry as `guardedName` there. Exact names match; names equal only
 * when case is ignored match where the directory compares names that way, and where that cannot be found out
 * (fail closed: a guarded entry might be created under that spelling).
 */
export function namesGuardedEntry(directory: string, name: string, guardedName: string): boolean {
	if (name === guardedName) return true;
	if (name.toLowerCase() !== guardedName.toLowerCase()) return false;
	return nameComparisonOf(directory, name, guardedName) !== "exact";
}

/** `candidate` is `parent` or below it (both absolute and normalised; `/` holds everything). */
export function within(parent: string, candidate: string): boolean {
	return candidate === parent || candidate.startsWith(parent === "/" ? "/" : `${parent}/`);
}

/**
 * `within`, with each component of `parent` compared as its directory compares names: `/Users/U/.PI/agent/x` is in
 * `/Users/u/.pi/agent` on a case-insensitive disk. Only a path equal to the prefix when case is ignored pays for
 * looking.
 */
export function withinOnDisk(parent: string, candidate: string): boolean {
	if (within(parent, candidate)) return true;
	if (!within(parent.toLowerCase(), candidate.toLowerCase())) return false;
	const guarded = parent.split("/");
	const written = candidate.split("/");
	let directory = "/";
	for (let index = 1; index < guarded.length; index++) {
		const name = guarded[index] ?? "";
		if (name === "") continue;
		if (!namesGuardedEntry(directory, written[index] ?? "", name)) return false;
		directory = path.join(directory, name);
	}
	return true;
}

/**
 * How `directory` compares names, judged from two spellings that differ by case alone: when both exist and are
 * one entry, it ignores case; when both exist as different entries, or one exists and the other does not, it
 * compares exactly. When neither exists, the directory itself is judged the same way through its own name in its
 * parent (casefold is inherited by new directories); a name with no letters, or the root, leaves it unknown.
 */
export function nameComparisonOf(directory: string, spelling: string, otherSpelling: string): NameComparison {
	const one = lstatQuietly(path.join(directory, spelling));
	const other = lstatQuietly(path.join(directory, otherSpelling));
	if (one !== undefined && other !== undefined) return sameEntry(one, other) ? "case-insensitive" : "exact";
	if (one !== undefined || other !== undefined) return "exact";
	return comparisonOfDirectory(directory);
}

/** How the directory holding `directory` compares names, probed with `directory`'s own name case-flipped. */
function comparisonOfDirectory(directory: string, hops = 0): NameComparison {
	const parent = path.dirname(directory);
	const name = path.basename(directory);
	if (parent === directory || hops > 64) return "unknown";
	const flipped = flipCase(name);
	if (flipped === name) return comparisonOfDirectory(parent, hops + 1);
	const itself = lstatQuietly(directory);
	if (itself === undefined) return comparisonOfDirectory(parent, hops + 1);
	const other = lstatQuietly(path.join(parent, flipped));
	if (other === undefined) return "exact";
	return sameEntry(itself, other) ? "case-insensitive" : "exact";
}

/** `name` with every letter's case swapped (`.Git` → `.gIT`): a name with no letters comes back unchanged. */
export function flipCase(name: string): string {
	let out = "";
	for (const char of name) {
		const upper = char.toUpperCase();
		out += upper === char ? char.toLowerCase() : upper;
	}
	return out;
}

function sameEntry(a: Stats, b: Stats): boolean {
	return a.dev === b.dev && a.ino === b.ino;
}

function lstatQuietly(candidate: string): Stats | undefined {
	try {
		return lstatSync(candidate, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}
