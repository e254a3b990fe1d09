/**
 * The paths the gate guards for itself (adr/0014): writing one would loosen the gate, hide its tracks, or make
 * code run later without a tool call — pi's agent dir (the gate's config, audit log and inbox; pi's settings,
 * extensions and packages), the shell's and git's start-up files in the home directory, and what
 * execution-config.ts finds: every git directory, hooks directory, `.pi/` and `.agents/`. Such a write is `privileged`, and only a human may allow it:
 * no rule, grant or authorizer link. Reading the inbox (request ids, action hashes) is refused outright.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import type { PathGuard, PathTouch } from "./action.ts";
import { CONFIGURING_NAMES, guardOfExecutionConfig } from "./execution-config.ts";
import { withinOnDisk } from "./name-on-disk.ts";

/** Files in the home directory that run code when a shell, git or ssh starts. */
const HOME_STARTUP_FILES = [
	".bashrc",
	".bash_profile",
	".bash_login",
	".bash_logout",
	".profile",
	".zshrc",
	".zshenv",
	".zprofile",
	".zlogin",
	".zlogout",
	".kshrc",
	".mkshrc",
	".config/fish",
	".gitconfig",
	".config/git",
	".ssh/config",
	".ssh/rc",
	".ssh/authorized_keys",
];

export interface GuardedLocations {
	readonly agentDir: string;
	readonly homeDir: string;
	/** Where the guarded locations really are when links lead there (`guardedLinkTargets`); computed once per action. */
	readonly linkedGuards?: () => LinkedGuards;
}

/**
 * A dotfile manager links `~/.bashrc` to `~/dotfiles/bash/.bashrc`; a home or an agent dir may itself be a link.
 * Writing the link's target writes the guarded file, though neither spelling of that path names it.
 */
export interface LinkedGuards {
	/** Guarded files and trees, resolved. */
	readonly trees: readonly string[];
	/** The resolved home: a write into it can create the start-up files. */
	readonly directories: readonly string[];
	/** The resolved inbox, when a link leads there. */
	readonly inboxes: readonly string[];
}

export function guardedLinkTargets(where: GuardedLocations): LinkedGuards {
	const { agentDir, homeDir, inbox } = guardedPaths(where);
	const realHome = resolvedLink(homeDir) ?? homeDir;
	const trees = new Set<string>();
	for (const entry of [agentDir, ...HOME_STARTUP_FILES.map((file) => path.join(homeDir, file))]) {
		const target = resolvedLink(entry);
		if (target !== undefined && target !== entry) trees.add(target);
	}
	if (realHome !== homeDir) {
		for (const file of HOME_STARTUP_FILES) trees.add(path.join(realHome, file));
	}
	const realInbox = resolvedLink(inbox);
	return {
		trees: [...trees],
		directories: realHome === homeDir ? [] : [realHome],
		inboxes: realInbox === undefined || realInbox === inbox ? [] : [realInbox],
	};
}

/**
 * The realpath of an existing entry, or where a dangling link points (writing through it creates that). Most
 * start-up files do not exist: one `lstat` says so without the two exceptions realpath and readlink would throw
 * (this runs for every action that names a path).
 */
function resolvedLink(entry: string): string | undefined {
	let found: Stats | undefined;
	try {
		found = lstatSync(entry, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
	if (found === undefined) return undefined;
	try {
		return realpathSync.native(entry);
	} catch {
		if (!found.isSymbolicLink()) return undefined;
		try {
			return path.resolve(path.dirname(entry), readlinkSync(entry));
		} catch {
			return undefined;
		}
	}
}

/** The guarded locations as absolute paths, built once per agent dir and home (every call checks them). */
interface GuardedPaths {
	/** The agent dir and home normalised: `HOME=/home/u/` must guard `/home/u/.bashrc` all the same. */
	readonly agentDir: string;
	readonly homeDir: string;
	readonly inbox: string;
	readonly startupFiles: readonly string[];
}

const guardedPathsCache = new Map<string, GuardedPaths>();

function guardedPaths(where: GuardedLocations): GuardedPaths {
	const key = `${where.agentDir}\0${where.homeDir}`;
	let paths = guardedPathsCache.get(key);
	if (paths === undefined) {
		const agentDir = path.resolve(where.agentDir);
		const homeDir = path.resolve(where.homeDir);
		paths = {
			agentDir,
			homeDir,
			inbox: path.join(agentDir, "pi-permission-hub", "inbox"),
			startupFiles: HOME_STARTUP_FILES.map((file) => path.join(homeDir, file)),
		};
		if (guardedPathsCache.size > 16) guardedPathsCache.clear();
		guardedPathsCache.set(key, paths);
	}
	return paths;
}

/** The guard for one path form (absolute, normalized), or null. */
function guardOfPath(
	candidate: string,
	access: PathTouch["access"],
	where: GuardedLocations,
): PathGuard | null {
	const locations = guardedPaths(where);
	const { inbox, startupFiles, agentDir, homeDir } = locations;
	if (withinOnDisk(inbox, candidate)) {
		return {
			kind: "refuse",
			reason: `${candidate} is in the permission gate's inbox, which only the gate itself reads and writes`,
		};
	}
	const linked = where.linkedGuards?.();
	if (linked?.inboxes.some((real) => withinOnDisk(real, candidate)) === true) {
		return {
			kind: "refuse",
			reason: `${candidate} is in the permission gate's inbox (a link leads there), which only the gate itself reads and writes`,
		};
	}
	if (access !== "write") return null;
	if (withinOnDisk(agentDir, candidate)) {
		return {
			kind: "human",
			reason: `writes ${candidate} in pi's agent dir (the gate's config, audit log and inbox; pi's settings and extensions)`,
		};
	}
	for (const target of linked?.trees ?? []) {
		if (withinOnDisk(target, candidate)) {
			return { kind: "human", reason: `writes ${candidate}, where a link to a path the gate guards leads` };
		}
	}
	if (linked?.directories.includes(candidate) === true) {
		return { kind: "human", reason: `writes into ${candidate}, the home directory a link leads to` };
	}
	for (const file of withinOnDisk(homeDir, candidate) ? startupFiles : []) {
		if (withinOnDisk(file, candidate)) {
			return {
				kind: "human",
				reason: `writes ${candidate}, which runs code when a shell, git or ssh starts`,
			};
		}
	}
	return guardOfExecutionConfig(candidate, { homeDir }) ?? guardOfExisting(candidate, locations);
}

/**
 * What the file system says about a written path. A write into a directory that holds guarded entries can create
 * them by name (`cp .bashrc ~`, `cp -r evil/. .` over a project's `.git/`), though no guarded name appears in the
 * command: the home directory and the directories above the agent dir, and any existing directory holding a
 * `.git` or `.pi`. A file with more than one hard link is also another name, which no path shows: writing
 * `notes.txt` made by `ln ~/.bashrc notes.txt` writes `~/.bashrc`.
 */
function guardOfExisting(candidate: string, where: GuardedPaths): PathGuard | null {
	if (withinOnDisk(candidate, where.homeDir) || withinOnDisk(candidate, where.agentDir)) {
		return {
			kind: "human",
			reason: `writes into ${candidate}, which holds the shell's start-up files and pi's agent dir`,
		};
	}
	// Most writes name a new or plain file: one stat rules those out.
	const stats = statQuietly(candidate);
	if (stats === undefined) return null;
	if (!stats.isDirectory()) {
		return stats.nlink > 1
			? {
					kind: "human",
					reason: `writes ${candidate}, a file with ${stats.nlink} hard links: its other names could be files the gate guards`,
				}
			: null;
	}
	const held = CONFIGURING_NAMES.filter((entry) => existsSync(path.join(candidate, entry)));
	if (held.length > 0) {
		return {
			kind: "human",
			reason: `writes into ${candidate}, which holds ${held.join(" and ")} (git's config and hooks, pi's project settings, agent definitions)`,
		};
	}
	return null;
}

function statQuietly(candidate: string): Stats | undefined {
	try {
		return statSync(candidate, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}

/** The strictest guard over a touch's forms (as typed and made absolute, and symlink-resolved). */
export function guardOfTouch(
	touch: Pick<PathTouch, "access" | "absolute" | "resolved">,
	where: GuardedLocations,
): PathGuard | null {
	const forms = touch.absolute === touch.resolved ? [touch.absolute] : [touch.absolute, touch.resolved];
	const guards = forms
		.filter((form) => path.isAbsolute(form))
		.map((form) => guardOfPath(path.normalize(form), touch.access, where))
		.filter((guard): guard is PathGuard => guard !== null);
	return strictestGuard(guards);
}

/**
 * A read of everything below a directory that holds the gate's inbox (`grep -r x ~`, `find ~/.pi -type f -exec
 * cat {} +`) reads the inbox though no word names it; only a human may allow it.
 */
export function guardOfTree(
	touch: Pick<PathTouch, "absolute" | "resolved">,
	where: GuardedLocations,
): PathGuard | null {
	const { inbox } = guardedPaths(where);
	const inboxes = [inbox, ...(where.linkedGuards?.().inboxes ?? [])];
	const holds = [touch.absolute, touch.resolved].some(
		(form) => path.isAbsolute(form) && inboxes.some((real) => withinOnDisk(path.normalize(form), real)),
	);
	return holds
		? {
				kind: "human",
				reason: `reads everything below ${touch.absolute}, the gate's inbox among it (request ids, action hashes)`,
			}
		: null;
}

export function strictestGuard(guards: readonly (PathGuard | null | undefined)[]): PathGuard | null {
	let best: PathGuard | null = null;
	for (const guard of guards) {
		if (guard == null) continue;
		if (best === null || (guard.kind === "refuse" && best.kind !== "refuse")) best = guard;
	}
	return best;
}
