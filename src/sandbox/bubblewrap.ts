/**
 * The OS sandbox a command runs in, built on bubblewrap (adr/0017): a fixed argument list per profile, so
 * what a command may touch follows from the tier it was approved at, whatever it turns out to run.
 *
 *   read-only       the whole file system read-only, a private empty /tmp, no network
 *   project-write   as read-only, plus writes inside the project — except its `.git` configuration and hooks
 *                   and `.pi/`, which stay read-only (adr/0014) — and still no network
 *   network         as project-write, with the host's network
 *
 * In every profile the command keeps no capability (`--cap-drop ALL`: a root user would otherwise keep
 * CAP_SYS_ADMIN inside and could unmount the read-only binds), cannot create user namespaces of its own where
 * bubblewrap supports refusing them, and dies with the process that started it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { errorMessage } from "../vocabulary/error-message.ts";

export type SandboxProfile = "read-only" | "project-write" | "network";

export interface SandboxPlace {
	/** The project directory (absolute, resolved): writable in `project-write` and `network`. */
	readonly project: string;
	/** Where the command starts (absolute). */
	readonly cwd: string;
	/** Paths no command may write even inside the project: the home directory, pi's agent dir. */
	readonly keepReadOnly: readonly string[];
}

/** What this machine's bubblewrap can do, probed once. */
export type BubblewrapProbe =
	| { readonly usable: true; readonly path: string; readonly refusesUserNamespaces: boolean }
	| { readonly usable: false; readonly why: string };

/**
 * At the project's top, these are never writable from the sandbox: what git and pi read and run later
 * (adr/0014). All of `.git` is covered, not only its hooks and config: git follows `commondir`, `config.worktree`
 * and `modules/*` to other configurations, so any writable file there could name a program for the next
 * `git status`.
 */
const PROTECTED_AT_TOP = [".git", ".pi"];

/**
 * The arguments that put one command in the sandbox of `profile`; the command follows them (after `--`).
 * Order matters: later mounts cover earlier ones, so the private /tmp comes before the project (which may lie
 * below /tmp) and the protected paths come last.
 */
export function bubblewrapArguments(
	profile: SandboxProfile,
	place: SandboxPlace,
	probe: BubblewrapProbe & { usable: true },
): string[] {
	const args = [
		"--die-with-parent",
		"--new-session",
		"--unshare-user",
		"--unshare-pid",
		"--unshare-ipc",
		"--unshare-uts",
		"--unshare-cgroup-try",
		...(probe.refusesUserNamespaces ? ["--disable-userns"] : []),
		"--cap-drop",
		"ALL",
		"--ro-bind",
		"/",
		"/",
		"--dev",
		"/dev",
		"--proc",
		"/proc",
		"--tmpfs",
		"/tmp",
	];
	if (profile !== "network") args.push("--unshare-net");
	const project = place.project;
	const protectedPaths = profile === "read-only" ? null : protectedMounts(place);
	if (protectedPaths === null) {
		// A project below /tmp must still be readable after the private /tmp covers it.
		if (below(project, "/tmp")) args.push("--ro-bind", project, project);
	} else {
		args.push("--bind", project, project, ...protectedPaths);
	}
	args.push("--chdir", place.cwd);
	return args;
}

/**
 * The mounts that keep the project's protected paths read-only, or null when the project cannot be made
 * writable safely — then the command gets no writes at all, never unprotected ones:
 * - a project that holds the home directory or pi's agent dir (start-up files, the gate's own config);
 * - a protected path that is a symbolic link (bubblewrap would mount on its target and leave the link itself
 *   replaceable) or neither a directory nor a file.
 * A protected path that does not exist yet is covered by an empty read-only directory, so it cannot be
 * created (git passes over an empty `.git` directory and keeps looking upward; pi reads nothing from an empty
 * `.pi`). Each is a mount point of its own, so it cannot be renamed away either.
 */
function protectedMounts(place: SandboxPlace): string[] | null {
	if (place.keepReadOnly.some((path) => below(path, place.project))) return null;
	const mounts: string[] = [];
	for (const name of PROTECTED_AT_TOP) {
		const path = join(place.project, name);
		const kind = entryKind(path);
		if (kind === "missing") mounts.push("--tmpfs", path, "--remount-ro", path);
		else if (kind === "directory" || kind === "file") mounts.push("--ro-bind", path, path);
		else return null;
	}
	return mounts;
}

/**
 * `command` as the bash tool runs it, wrapped: bubblewrap starts bash with the same script inside the sandbox.
 * The script travels as one argument, single-quoted, so nothing in it is read by the outer shell.
 */
export function sandboxedCommand(
	command: string,
	profile: SandboxProfile,
	place: SandboxPlace,
	probe: BubblewrapProbe & { usable: true },
): string {
	const args = bubblewrapArguments(profile, place, probe).map(shellQuote).join(" ");
	return `exec ${shellQuote(probe.path)} ${args} -- /bin/bash -c ${shellQuote(command)}`;
}

/**
 * Only where the system installs it: a `bwrap` found through `PATH` could be one the project planted (a
 * relative or project-local entry), and it would then decide what "sandboxed" means.
 */
const SYSTEM_BWRAP = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];

let probed: BubblewrapProbe | null = null;

/**
 * Whether bubblewrap is installed and can build a sandbox here (user namespaces may be forbidden: some
 * container runtimes, AppArmor on Ubuntu 24.04). Probed once per process by running a real sandbox.
 */
export function probeBubblewrap(): BubblewrapProbe {
	if (probed) return probed;
	probed = probeAt(SYSTEM_BWRAP.find((path) => existsSync(path)) ?? null);
	return probed;
}

/** The probe for a given binary (tests point it at a missing one). */
export function probeAt(path: string | null): BubblewrapProbe {
	if (path === null) return { usable: false, why: "bubblewrap (bwrap) is not installed" };
	let help = "";
	try {
		help = execFileSync(path, ["--help"], {
			encoding: "utf8",
			timeout: 5000,
			stdio: ["ignore", "pipe", "pipe"],
		});
	} catch (error) {
		return { usable: false, why: `${path} --help failed: ${describe(error)}` };
	}
	try {
		// The same arguments a command gets: bubblewrap in some containers can build a namespace but not mount
		// `/proc` in it, and a probe that asked for less would call it usable.
		const profile = bubblewrapArguments(
			"read-only",
			{ project: "/", cwd: "/", keepReadOnly: [] },
			{ usable: true, path, refusesUserNamespaces: help.includes("--disable-userns") },
		);
		execFileSync(path, [...profile, "--", "/bin/true"], {
			timeout: 5000,
			stdio: ["ignore", "ignore", "pipe"],
		});
	} catch (error) {
		return {
			usable: false,
			why: `bubblewrap cannot create a sandbox here (user namespaces may be disabled): ${describe(error)}`,
		};
	}
	return { usable: true, path, refusesUserNamespaces: help.includes("--disable-userns") };
}

function describe(error: unknown): string {
	const stderr = typeof error === "object" && error !== null ? Reflect.get(error, "stderr") : undefined;
	const text = typeof stderr === "string" || Buffer.isBuffer(stderr) ? String(stderr).trim() : "";
	return text || errorMessage(error);
}

function entryKind(path: string): "missing" | "directory" | "file" | "other" {
	let stat: ReturnType<typeof lstatSync>;
	try {
		stat = lstatSync(path);
	} catch {
		return "missing";
	}
	if (stat.isDirectory()) return "directory";
	return stat.isFile() ? "file" : "other";
}

function below(path: string, dir: string): boolean {
	const rel = relative(dir, path);
	return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

function shellQuote(text: string): string {
	return `'${text.replaceAll("'", `'\\''`)}'`;
}
