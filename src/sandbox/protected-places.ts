/**
 * The places in a project that the project-write sandbox keeps read-only, found by looking (adr/0014, adr/0017):
 * every `.git` (directory or gitfile: nested repositories, submodules, worktrees), every directory git takes for a
 * repository (`HEAD`, or `objects/` with `refs/`), the hooks directory each repository's config names
 * (`core.hooksPath`) and the files it includes, every `.pi/` and `.agents/`, and the targets of guarded links that lie in the project. The
 * search is bounded: it skips `node_modules` and what it already protects, and past its caps it gives up — then
 * the project gets no writes at all, never unprotected ones.
 */
import { type Dirent, lstatSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { CONFIGURING_NAMES, gitDirectoryNamedIn } from "../classify/execution-config.ts";
import { hooksPlaceOf } from "../classify/git-hooks-path.ts";
import { namesGuardedEntry } from "../classify/name-on-disk.ts";
import type { DirectoryListings } from "./directory-listings.ts";

/** What a protected place is to the program that reads it. */
export type ProtectedKind = "git" | "pi" | "agents" | "hooks" | "git-config" | "link-target";

/** A place to keep read-only: an entry that exists, or one that does not yet and must not be created. */
export interface ProtectedPlace {
	readonly path: string;
	readonly exists: boolean;
	readonly kind: ProtectedKind;
}

export interface ProtectedSearch {
	readonly project: string;
	readonly homeDir: string;
	/** Where links to guarded files lead (the `~/.bashrc` of a dotfiles repository), resolved. */
	readonly linkTargets: readonly string[];
	/** The caps, lowered by tests (default: the constants below). */
	readonly limits?: { readonly directories: number; readonly places: number };
	/** Listings kept from the session's earlier searches (directory-listings.ts); absent, every directory is read. */
	readonly listings?: DirectoryListings;
}

/** Directories looked into at most, and places protected at most: past either, the project stays read-only. */
export const MAX_SEARCHED_DIRECTORIES = 10_000;
export const MAX_PROTECTED_PLACES = 256;

/** Never looked into: package managers' trees are large, and what runs from them is not configuration. */
const SKIPPED_DIRECTORIES = new Set(["node_modules"]);

/** Protected at the project's top even before they exist, so a command cannot create them (bubblewrap.ts). */
const PROTECTED_AT_TOP = [".git", ".pi", ".agents"];

const CONFIGURING = new Set(CONFIGURING_NAMES.map((name) => name.toLowerCase()));

/**
 * The places to keep read-only, outermost first, none inside another; or why the project cannot be made writable
 * safely (a cap passed, a protected name that is a symbolic link, a hooks directory that cannot be known).
 */
export function findProtectedPlaces(
	search: ProtectedSearch,
): { readonly places: readonly ProtectedPlace[] } | { readonly refused: string } {
	const { project } = search;
	const limits = search.limits ?? { directories: MAX_SEARCHED_DIRECTORIES, places: MAX_PROTECTED_PLACES };
	const found = new Map<string, ProtectedPlace>();
	const protect = (place: string, exists: boolean, kind: ProtectedKind) => {
		if (!found.has(place)) found.set(place, { path: place, exists, kind });
	};
	for (const name of PROTECTED_AT_TOP) {
		const place = path.join(project, name);
		protect(place, lstatQuietly(place) !== undefined, kindOfName(name));
	}
	const queue = [project];
	let searched = 0;
	while (queue.length > 0) {
		const directory = queue.shift() ?? project;
		if (++searched > limits.directories) {
			return { refused: `the project has more than ${limits.directories} directories to search` };
		}
		let entries: readonly Dirent[];
		try {
			entries = search.listings?.entries(directory) ?? readdirSync(directory, { withFileTypes: true });
		} catch {
			continue;
		}
		const names = new Set(entries.map((entry) => entry.name.toLowerCase()));
		// On a case-insensitive disk git opening `HEAD` finds a `head` (name-on-disk.ts, adr/0014).
		const head = entries.some((entry) => namesGuardedEntry(directory, entry.name, "HEAD"));
		if (head || (names.has("objects") && names.has("refs"))) {
			if (directory === project) return { refused: "the project itself is laid out as a git directory" };
			protect(directory, true, "git");
			continue;
		}
		for (const entry of entries) {
			const place = path.join(directory, entry.name);
			if (CONFIGURING.has(entry.name.toLowerCase())) {
				if (entry.isSymbolicLink()) return { refused: `${place} is a symbolic link` };
				protect(place, true, kindOfName(entry.name));
			} else if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) queue.push(place);
		}
		const refused = names.has(".git") ? protectHooksAndGitDir(directory, search, protect) : null;
		if (refused !== null) return { refused };
		if (found.size > limits.places) {
			return { refused: `the project has more than ${limits.places} places to protect` };
		}
	}
	for (const target of search.linkTargets) {
		if (!inside(project, target) || target === project) continue;
		if (lstatQuietly(target) === undefined) {
			return { refused: `${target}, where a link to a guarded file leads, does not exist yet` };
		}
		protect(target, true, "link-target");
	}
	const places = outermost([...found.values()]);
	const linked = places.find((place) => !reachedWithoutLinks(place.path, project));
	if (linked !== undefined) return { refused: `${linked.path} is reached through a symbolic link` };
	return { places };
}

/**
 * Whether `place` is where its spelling says, with no link on the way from the project: bubblewrap mounts on a
 * link's target and leaves the link itself replaceable (`.husky -> hooks`, then `rm .husky; mkdir .husky`).
 */
function reachedWithoutLinks(place: string, project: string): boolean {
	let existing = place;
	while (lstatQuietly(existing) === undefined && existing !== project) existing = path.dirname(existing);
	try {
		return realpathSync(existing) === existing && lstatQuietly(place)?.isSymbolicLink() !== true;
	} catch {
		return false;
	}
}

/**
 * A repository whose work tree is `directory`: its hooks directory (core.hooksPath) and its git directory, when
 * a gitfile sends it elsewhere in the project. Null, or why the project cannot be protected.
 */
function protectHooksAndGitDir(
	directory: string,
	search: ProtectedSearch,
	protect: (place: string, exists: boolean, kind: ProtectedKind) => void,
): string | null {
	const gitDir = gitDirectoryNamedIn(directory);
	if (gitDir === undefined) return null;
	if (inside(search.project, gitDir)) protect(gitDir, lstatQuietly(gitDir) !== undefined, "git");
	const hooks = hooksPlaceOf(gitDir, directory, search);
	if (!hooks.known) return `the hooks directory of the repository at ${directory} is not known: ${hooks.why}`;
	for (const file of [...hooks.included, ...hooks.programs]) {
		if (!inside(search.project, file)) continue;
		// An include or a program the config names that does not exist yet would count once created; a mount cannot
		// hold a file's place.
		if (lstatQuietly(file) === undefined)
			return `${file}, which the repository's config names, does not exist`;
		protect(file, true, "git-config");
	}
	if (!inside(search.project, hooks.directory)) return null;
	if (hooks.directory === search.project) return `core.hooksPath of ${directory} is the project itself`;
	const stats = lstatQuietly(hooks.directory);
	if (stats?.isSymbolicLink() === true) return `${hooks.directory} (core.hooksPath) is a symbolic link`;
	protect(hooks.directory, stats !== undefined, "hooks");
	return null;
}

/** The kind of a place protected for its name (`.git`, `.pi`, `.agents`, in any case). */
function kindOfName(name: string): ProtectedKind {
	const lower = name.toLowerCase();
	return lower === ".pi" ? "pi" : lower === ".agents" ? "agents" : "git";
}

/** The places sorted, with each one inside another dropped: the outer mount covers it. */
function outermost(places: readonly ProtectedPlace[]): ProtectedPlace[] {
	const sorted = [...places].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	const kept: ProtectedPlace[] = [];
	for (const place of sorted) {
		if (!kept.some((outer) => inside(outer.path, place.path))) kept.push(place);
	}
	return kept;
}

function inside(parent: string, candidate: string): boolean {
	return candidate === parent || candidate.startsWith(`${parent}/`);
}

function lstatQuietly(candidate: string): ReturnType<typeof lstatSync> | undefined {
	try {
		return lstatSync(candidate, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}
