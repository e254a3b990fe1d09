/**
 * The places that make a later command run a program, found on the file system rather than listed (adr/0014):
 * every git directory on a written path's way up — a `.git` at any depth (nested repositories, submodules'
 * gitfiles, worktrees), and a directory git itself would take for one (`HEAD`, or `objects/` with `refs/`: a bare
 * repository made by plain writes, whose `core.fsmonitor` the next `git status` there runs) — the hooks directory
 * each repository's config names (`core.hooksPath`: `.husky/_`, `.githooks`) and the files it includes,
 * launcher agent definitions
 * (`.agents/`) and pi's `.pi/`. Names are compared as the directory they land in compares them (name-on-disk.ts).
 */
import { lstatSync, readFileSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import type { PathGuard } from "./action.ts";
import { hooksPlaceOf } from "./git-hooks-path.ts";
import { namesGuardedEntry, withinOnDisk } from "./name-on-disk.ts";

/** Directory names whose contents a later program runs or loads, wherever they are. */
const CONFIGURING_DIRECTORIES: readonly { readonly name: string; readonly reason: string }[] = [
	{ name: ".pi", reason: "a project's .pi/ (its pi settings, extensions, agents and permission policy)" },
	// All of `.git`, not only `config` and `hooks`: a submodule's or worktree's config lives deeper
	// (`.git/modules/x/config`, `.git/worktrees/x/config.worktree`), a submodule's `lib/.git` gitfile names
	// where its config is, and `mv evil .git` replaces the lot.
	{ name: ".git", reason: "a .git directory or gitfile: git runs what the config and hooks there name" },
	// pi-subagents reads `<project>/.agents/*.md`, @tintinweb/pi-subagents `.agents/agents/*.md`: an agent
	// definition names the extensions its child loads (adr/0026).
	{
		name: ".agents",
		reason: "launcher agent definitions (.agents/), which name what a subagent loads and runs",
	},
];

/** The directory names a write into an existing directory could create (guarded-paths.ts). */
export const CONFIGURING_NAMES: readonly string[] = CONFIGURING_DIRECTORIES.map((entry) => entry.name);

interface Scope {
	readonly homeDir: string;
}

/**
 * The guard for writing `candidate` (absolute, normalised), or null. Looks at each of its components and each of
 * its ancestors (and itself, when it is a directory another write lands in): a few `lstat`s per level.
 */
export function guardOfExecutionConfig(candidate: string, scope: Scope): PathGuard | null {
	const segments = candidate.split("/");
	let directory = "/";
	for (let index = 1; index < segments.length; index++) {
		const name = segments[index] ?? "";
		if (name === "") continue;
		for (const guarded of CONFIGURING_DIRECTORIES) {
			if (namesGuardedEntry(directory, name, guarded.name)) {
				return { kind: "human", reason: `writes ${candidate} in ${guarded.reason}` };
			}
		}
		directory = path.join(directory, name);
	}
	// `HEAD` is the one file every git directory holds: a new one next to `objects/` and `refs/` (or with a
	// `commondir` naming them) makes a repository git finds from below, whatever order the pieces come in.
	const parent = path.dirname(candidate);
	if (parent !== candidate && namesGuardedEntry(parent, path.basename(candidate), "HEAD")) {
		return {
			kind: "human",
			reason: `writes ${candidate}: a HEAD file makes its directory a git repository, whose config git runs programs from`,
		};
	}
	return guardOfRepositories(candidate, scope);
}

/**
 * The guard for copying or moving `source` (absolute, resolved) somewhere: a git directory, or a `HEAD` file,
 * makes its destination one, with whatever config the destination already holds (`printf … > pkg/config`, then
 * `cp -rn .git/. pkg/`), and nothing at the destination's name says so before the copy.
 */
export function guardOfCopiedSource(source: string): PathGuard | null {
	const parent = path.dirname(source);
	const isHead = parent !== source && namesGuardedEntry(parent, path.basename(source), "HEAD");
	if (!isHead && !looksLikeGitDirectory(source)) return null;
	return {
		kind: "human",
		reason: `copies ${source}, ${isHead ? "a HEAD file" : "a git directory"}: where it lands git takes for a repository, whose config git runs programs from`,
	};
}

/** A repository met on the way up: where its git directory is, and where its hooks run from. */
interface Repository {
	readonly gitDir: string;
	readonly workTree: string;
}

function guardOfRepositories(candidate: string, scope: Scope): PathGuard | null {
	const repositories: Repository[] = [];
	for (let directory = candidate; ; ) {
		if (looksLikeGitDirectory(directory)) {
			return {
				kind: "human",
				reason: `writes ${candidate}, in ${directory}, which git takes for a repository (HEAD, objects/, refs/): git runs what its config and hooks name`,
			};
		}
		const dotGit = gitDirectoryNamedIn(directory);
		if (dotGit !== undefined) repositories.push({ gitDir: dotGit, workTree: directory });
		const up = path.dirname(directory);
		if (up === directory) break;
		directory = up;
	}
	for (const repository of repositories) {
		const hooks = hooksPlaceOf(repository.gitDir, repository.workTree, scope);
		if (!hooks.known) {
			return {
				kind: "human",
				reason: `writes ${candidate} in the repository at ${repository.workTree}, whose hooks directory is not known: ${hooks.why}`,
			};
		}
		const config = hooks.included.find(
			(file) => withinOnDisk(file, candidate) || withinOnDisk(candidate, file),
		);
		if (config !== undefined) {
			return {
				kind: "human",
				reason: `writes ${candidate}: the config of the repository at ${repository.workTree} includes ${config}, which can name programs for git to run`,
			};
		}
		const program = hooks.programs.find(
			(file) => withinOnDisk(file, candidate) || withinOnDisk(candidate, file),
		);
		if (program !== undefined) {
			return {
				kind: "human",
				reason: `writes ${candidate}: the config of the repository at ${repository.workTree} names ${program} as a program git runs`,
			};
		}
		if (withinOnDisk(hooks.directory, candidate) || withinOnDisk(candidate, hooks.directory)) {
			return {
				kind: "human",
				reason: `writes ${candidate}: git runs the hooks in ${hooks.directory} (core.hooksPath of the repository at ${repository.workTree})`,
			};
		}
	}
	return null;
}

/**
 * What git's own test accepts as a git directory, taken wider: a `HEAD` of any kind, or `objects/` and `refs/`
 * together (a main repository a `commondir` names has no HEAD of its own).
 */
export function looksLikeGitDirectory(directory: string): boolean {
	if (lstatQuietly(path.join(directory, "HEAD")) !== undefined) return true;
	return (
		lstatQuietly(path.join(directory, "objects"))?.isDirectory() === true &&
		lstatQuietly(path.join(directory, "refs"))?.isDirectory() === true
	);
}

/** The git directory a `.git` in `directory` names: itself when a directory, its `gitdir:` line when a file. */
export function gitDirectoryNamedIn(directory: string): string | undefined {
	const dotGit = path.join(directory, ".git");
	const stats = statQuietly(dotGit);
	if (stats === undefined) return undefined;
	if (stats.isDirectory()) return dotGit;
	if (!stats.isFile()) return undefined;
	let text: string;
	try {
		text = readFileSync(dotGit, "utf8");
	} catch {
		return undefined;
	}
	const named = /^gitdir:\s*(.*?)\s*$/m.exec(text)?.[1];
	return named === undefined || named === "" ? undefined : path.resolve(directory, named);
}

function lstatQuietly(candidate: string): Stats | undefined {
	try {
		return lstatSync(candidate, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}

function statQuietly(candidate: string): Stats | undefined {
	try {
		return statSync(candidate, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}
