/**
 * bash expands a glob in a written path before the command runs, redirects included, to the existing names it
 * matches: `echo x >> .gi?/config` appends to `.git/config`, though the word as typed names no guarded path. Each
 * name a written glob matches now is checked as a path the command writes (matched with dot files, `.` and `..`
 * included, a superset of what any bash matches); a glob whose matches cannot be listed (`**`, too many entries, a directory
 * known only at run time) writes somewhere known only at run time.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { type EffectiveCwd, resolveDirectory } from "../paths.ts";
import type { PathCandidate } from "./path-candidate.ts";

/** A character that makes bash expand a word against the file system (brace expansion is not a match). */
export const GLOB = /[*?[]/;
/** Past this many matches in all, what the glob reaches is not known. */
const MOST_MATCHES = 5000;

export function globWriteCandidates(
	candidates: readonly PathCandidate[],
	cwd: EffectiveCwd,
	homeDir: string,
): PathCandidate[] {
	const matches: PathCandidate[] = [];
	for (const candidate of candidates) {
		const value = candidate.value;
		if (candidate.access !== "write" || value === undefined || !GLOB.test(value)) continue;
		const names = expand(value, cwd, homeDir);
		if (names === undefined) {
			matches.push({ access: "write", typed: candidate.typed, value: undefined });
			continue;
		}
		for (const name of names) matches.push({ access: "write", typed: name, value: name });
	}
	return matches;
}

/**
 * The existing paths each read glob matches (`cat ~/.pi/agent/pi-permission-hub/inbo?/x` opens the inbox's `x`),
 * for their guards: a read is refused or human-only by what it opens, not by how it was spelled. A glob whose
 * matches cannot be listed (more than can be checked) may open anything below the directory its literal part
 * names, so it reads that whole tree: human-only where the tree holds the inbox, a plain read elsewhere.
 */
export function globReadMatches(
	candidates: readonly PathCandidate[],
	cwd: EffectiveCwd,
	homeDir: string,
): PathCandidate[] {
	const matches: PathCandidate[] = [];
	for (const candidate of candidates) {
		const value = candidate.value;
		if (candidate.access !== "read" || value === undefined || !GLOB.test(value)) continue;
		// `**` is `*` to a bash without `globstar` (its default; setting it is not a read).
		const names = expand(value.replaceAll("**", "*"), cwd, homeDir);
		if (names === undefined) {
			matches.push({ access: "read", typed: candidate.typed, value: literalDirectory(value), below: true });
			continue;
		}
		for (const name of names)
			matches.push({
				access: "read",
				typed: name,
				value: name,
				// A command that descends into its operands (`grep -r x ~/.pi/ag*`) reads below each match.
				...(candidate.below === true ? { below: true } : {}),
			});
	}
	return matches;
}

/** The existing paths `glob` matches, spelled from its own start, or undefined when they cannot be listed. */
function expand(glob: string, cwd: EffectiveCwd, homeDir: string): string[] | undefined {
	const absolute = glob.startsWith("/");
	let found = [absolute ? "/" : ""];
	for (const component of glob.split("/")) {
		if (component === "") continue;
		if (!GLOB.test(component)) {
			found = found.map((prefix) => join(prefix, component));
			continue;
		}
		if (component.includes("**")) return undefined;
		const matcher = picomatch(component, { dot: true });
		const next: string[] = [];
		for (const prefix of found) {
			const directory = resolveDirectory(prefix === "" ? "." : prefix, cwd, homeDir);
			if (directory === undefined) return undefined;
			// `.` and `..` are matched too: a bash before 5.2 (macOS's 3.2), or one with `globskipdots` off, expands
			// `.?` and `.[.]` to `..`, so `echo x >> .?/.bashrc` appends to the parent's `.bashrc`.
			for (const name of [".", "..", ...listQuietly(directory)]) {
				if (matcher(name)) next.push(join(prefix, name));
			}
			if (next.length > MOST_MATCHES) return undefined;
		}
		found = next;
	}
	return found;
}

/** The directory a glob's words name before its first pattern: `~/.pi/agent` for `~/.pi/agent/pi-?/inbox`. */
function literalDirectory(glob: string): string {
	const components = glob.split("/");
	const first = components.findIndex((component) => GLOB.test(component));
	const literal = components.slice(0, first).join("/");
	return literal === "" ? (glob.startsWith("/") ? "/" : ".") : literal;
}

function join(prefix: string, name: string): string {
	return prefix === "" ? name : path.posix.join(prefix, name);
}

function listQuietly(directory: string): string[] {
	try {
		return readdirSync(directory);
	} catch {
		// Not a directory, or not there: the glob matches nothing below it, and bash keeps the word as typed.
		return [];
	}
}
