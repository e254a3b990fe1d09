/**
 * PathTouch construction: a path as typed, made absolute against the directory the command runs in, and
 * symlink-resolved, so a path rule can name any of the three and a symlink inside the cwd that points outside is
 * caught. Never throws: a path that cannot be understood is reported as outside the cwd.
 */
import { lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";
import type { PathAccess, PathGuard, PathTouch } from "./action.ts";
import { guardedLinkTargets, guardOfTouch, type LinkedGuards } from "./guarded-paths.ts";
import { passesThroughProcessLink } from "./process-links.ts";

/** Where relative paths resolve: a known absolute directory, or one known only at run time (`cd "$X"`). */
export type EffectiveCwd =
	| { readonly known: true; readonly dir: string }
	| { readonly known: false; readonly label: string };

export interface PathContext {
	/** The session's cwd: "outside the cwd" is relative to this. */
	readonly sessionCwd: string;
	/** realpath of `sessionCwd` (computed once per action by `pathContext`). */
	readonly sessionCwdReal: string;
	/**
	 * The root's project, for a child whose directory may lie elsewhere (adr/0008): "inside the cwd" is inside both
	 * (as typed, or by real path). Absent: the session's cwd alone.
	 */
	readonly project?: { readonly dir: string; readonly real: string };
	readonly homeDir: string;
	/** pi's agent dir: where the gate's own files are (guarded-paths.ts). */
	readonly agentDir: string;
	/** Resolutions already made for this action (a long program names the same paths many times). */
	readonly resolvedCache: Map<string, string | undefined>;
	/** realpaths of the existing directories and files met so far in this action (see `realpathOfLongestPrefix`). */
	readonly realpaths: Map<string, string>;
	/** The command may set its own `$HOME`: a path starting with `~` is known only at run time. */
	readonly homeUnknown?: boolean;
	/** Where links to the guarded locations lead, looked up on first use in this action. */
	readonly linkedGuards: () => LinkedGuards;
}

/** A context for one action: the file system is consulted once per distinct path. */
export function pathContext(
	sessionCwd: string,
	homeDir: string,
	agentDir: string,
	projectDir?: string,
): PathContext {
	const absoluteCwd = path.resolve(sessionCwd);
	const realpaths = new Map<string, string>();
	let linked: LinkedGuards | undefined;
	const project = projectDir === undefined ? undefined : path.resolve(projectDir);
	return {
		sessionCwd: absoluteCwd,
		sessionCwdReal: realpathOfCwd(absoluteCwd, realpaths) ?? absoluteCwd,
		...(project === undefined || project === absoluteCwd
			? {}
			: { project: { dir: project, real: realpathOfCwd(project, realpaths) ?? project } }),
		homeDir,
		agentDir,
		resolvedCache: new Map(),
		realpaths,
		linkedGuards: () => {
			linked ??= guardedLinkTargets({ agentDir, homeDir });
			return linked;
		},
	};
}

/** The cwd nearly always exists: one realpath call, and the longest-prefix search only when that fails. */
function realpathOfCwd(cwd: string, realpaths: Map<string, string>): string | undefined {
	try {
		const real = realpathSync.native(cwd);
		realpaths.set(cwd, real);
		return real;
	} catch {
		return realpathOfLongestPrefix(cwd, realpaths);
	}
}

/**
 * `value` is the path to resolve (defaults to `typed`): `~` and `~/x` mean the home directory; anything else
 * relative resolves against `cwd`.
 */
export function makePathTouch(
	typed: string,
	access: PathAccess,
	cwd: EffectiveCwd,
	context: PathContext,
	value: string = typed,
): PathTouch {
	if (value === "" || value.includes("\0")) {
		return unknownPlace({ access, typed, absolute: value, resolved: value, outsideCwd: true });
	}
	if (context.homeUnknown === true && (value === "~" || value.startsWith("~/"))) {
		return unknownPlace({ access, typed, absolute: value, resolved: value, outsideCwd: true });
	}
	const expanded = expandHome(value, context.homeDir);
	if (!path.isAbsolute(expanded) && !cwd.known) {
		const unresolvable = `${cwd.label}/${expanded}`;
		return unknownPlace({ access, typed, absolute: unresolvable, resolved: unresolvable, outsideCwd: true });
	}
	const base = cwd.known ? cwd.dir : "/";
	const absolute = path.resolve(base, expanded);
	// `..` after a symlink climbs from the link's target, so the raw path is resolved, not `absolute`.
	const raw = path.isAbsolute(expanded) ? expanded : `${base}/${expanded}`;
	let resolved = context.resolvedCache.get(raw);
	if (!context.resolvedCache.has(raw)) {
		resolved = realpathOfLongestPrefix(raw, context.realpaths);
		context.resolvedCache.set(raw, resolved);
	}
	// Most paths hold no link at all: only one whose resolution differs from its spelling is walked again.
	if ((resolved !== absolute || absolute.startsWith("/proc/")) && passesThroughProcessLink(raw)) {
		return withGuard(
			{ access, typed, absolute, resolved: resolved ?? absolute, outsideCwd: true },
			{
				kind: "human",
				reason: `${access === "write" ? "writes" : "reads"} ${typed} through a /proc link whose target depends on the process that follows it, known only at run time`,
			},
		);
	}
	const where = { agentDir: context.agentDir, homeDir: context.homeDir, linkedGuards: context.linkedGuards };
	if (resolved === undefined) {
		const touch = { access, typed, absolute, resolved: absolute, outsideCwd: true };
		return withGuard(touch, guardOfTouch(touch, where));
	}
	const outsideCwd = !isWithinSession(absolute, context) || !isWithinSession(resolved, context);
	const touch = { access, typed, absolute, resolved, outsideCwd };
	return withGuard(touch, guardOfTouch(touch, where));
}

function withGuard(touch: PathTouch, guard: PathGuard | null): PathTouch {
	return guard === null ? touch : { ...touch, guard };
}

/**
 * A path whose place is known only at run time: a write there could be any file, the guarded ones included, so
 * only a human may allow it.
 */
function unknownPlace(touch: PathTouch): PathTouch {
	if (touch.access !== "write") return touch;
	return withGuard(touch, {
		kind: "human",
		reason: `writes ${touch.typed}, a path known only at run time, which could be one the gate guards`,
	});
}

/** A path the command will touch but that is known only at run time (`rm "$F"`). */
export function unresolvedPathTouch(typed: string, access: PathAccess): PathTouch {
	return unknownPlace({ access, typed, absolute: typed, resolved: typed, outsideCwd: true });
}

/** The directory a `cd` argument leads to, or undefined when it cannot be known statically. */
export function resolveDirectory(value: string, cwd: EffectiveCwd, homeDir: string): string | undefined {
	if (value === "" || value.includes("\0")) return undefined;
	const expanded = expandHome(value, homeDir);
	if (path.isAbsolute(expanded)) return path.resolve(expanded);
	return cwd.known ? path.resolve(cwd.dir, expanded) : undefined;
}

function expandHome(value: string, homeDir: string): string {
	if (value === "~") return homeDir;
	if (value.startsWith("~/")) return path.join(homeDir, value.slice(2));
	return value;
}

/** Inside the session's cwd and the root's project (as typed or by real path). */
export function isWithinSession(candidate: string, context: PathContext): boolean {
	const inCwd = isWithin(context.sessionCwd, candidate) || isWithin(context.sessionCwdReal, candidate);
	const { project } = context;
	return (
		inCwd && (project === undefined || isWithin(project.dir, candidate) || isWithin(project.real, candidate))
	);
}

export function isWithin(parent: string, child: string): boolean {
	if (child === parent) return true;
	const prefix = parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`;
	return child.startsWith(prefix);
}

const MAX_SYMLINK_HOPS = 40;

/**
 * realpath of the longest existing prefix, with the part that does not exist yet appended unchanged.
 * A dangling symlink is followed to where it points (writing through it creates the target). Undefined when the
 * path cannot be resolved (a symlink loop): callers treat that as outside the cwd.
 *
 * `realpaths` holds realpaths of paths already seen to exist during the same action; it is read before touching
 * the file system and filled as paths are resolved, so the prefixes several paths share (the cwd, `src/`) cost
 * one lookup per action, not one per path.
 */
export function realpathOfLongestPrefix(
	absolute: string,
	realpaths: Map<string, string> = new Map(),
	hops = 0,
): string | undefined {
	if (hops > MAX_SYMLINK_HOPS) return undefined;
	let existing = absolute;
	const missing: string[] = [];
	// lstat without throwing is far cheaper than a failing realpath; the kernel still follows symlinks
	// (and `..` after them) in every component but the last.
	let stats: Stats | undefined;
	for (;;) {
		const known = realpaths.get(existing);
		if (known !== undefined) return withMissing(known, missing);
		stats = lstatQuietly(existing);
		if (stats !== undefined) break;
		const parent = path.dirname(existing);
		if (parent === existing) return absolute;
		missing.push(path.basename(existing));
		existing = parent;
	}
	const real = realpathOfExisting(existing, stats, realpaths);
	if (real !== undefined) {
		realpaths.set(existing, real);
		return withMissing(real, missing);
	}
	let target: string;
	try {
		target = readlinkSync(existing);
	} catch {
		return undefined;
	}
	const linkDir = realpathOfLongestPrefix(path.dirname(existing), realpaths, hops + 1);
	if (linkDir === undefined) return undefined;
	return realpathOfLongestPrefix(
		path.join(path.resolve(linkDir, target), ...missing.reverse()),
		realpaths,
		hops + 1,
	);
}

/** `missing` holds the absent components innermost first. */
function withMissing(real: string, missing: readonly string[]): string {
	return missing.length === 0 ? real : path.join(real, ...[...missing].reverse());
}

/**
 * The realpath of a path that exists, or undefined when it cannot be had (a dangling or looping symlink).
 * A plain entry (not a symlink) of a directory whose realpath is already known is that realpath plus its name:
 * no second system call. A trailing slash makes lstat follow a final symlink, and `.`/`..` are not names, so
 * those ask the kernel.
 */
function realpathOfExisting(
	existing: string,
	stats: Stats,
	realpaths: Map<string, string>,
): string | undefined {
	if (!stats.isSymbolicLink() && !existing.endsWith(path.sep)) {
		const name = path.basename(existing);
		const parentReal = name === "." || name === ".." ? undefined : realpaths.get(path.dirname(existing));
		if (parentReal !== undefined) return path.join(parentReal, name);
	}
	try {
		return realpathSync.native(existing);
	} catch {
		return undefined;
	}
}

function lstatQuietly(candidate: string): Stats | undefined {
	try {
		return lstatSync(candidate, { throwIfNoEntry: false });
	} catch {
		// ENOTDIR, EACCES: treat as not there and keep climbing.
		return undefined;
	}
}
