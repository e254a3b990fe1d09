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
}

/** What this machine's bubblewrap can do, probed once. */
export type BubblewrapProbe =
	| { readonly usable: true; readonly path: string; readonly refusesUserNamespaces: boolean }
	| { readonly usable: false; readonly why: string };

/** Inside the project, these stay read-only in every profile: what git and pi run later (adr/0014). */
const PROTECTED_IN_PROJECT = [".git/config", ".git/hooks", ".git/info", ".pi"];

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
	if (profile === "read-only") {
		// A project below /tmp must still be readable after the private /tmp covers it.
		if (below(project, "/tmp")) args.push("--ro-bind", project, project);
	} else {
		args.push("--bind", project, project);
		// The project's `.git` is a mount point of its own: it cannot be renamed away and recreated without
		// the protections below (a rename of a mount point fails with EBUSY).
		const git = join(project, ".git");
		if (isDirectory(git)) args.push("--bind", git, git);
		for (const inside of PROTECTED_IN_PROJECT) {
			const path = join(project, inside);
			if (existsSync(path)) args.push("--ro-bind", path, path);
		}
	}
	args.push("--chdir", place.cwd);
	return args;
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
		execFileSync(path, ["--unshare-user", "--ro-bind", "/", "/", "--dev", "/dev", "--", "/bin/true"], {
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

function isDirectory(path: string): boolean {
	try {
		return lstatSync(path).isDirectory();
	} catch {
		return false;
	}
}

function below(path: string, dir: string): boolean {
	const rel = relative(dir, path);
	return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

function shellQuote(text: string): string {
	return `'${text.replaceAll("'", `'\\''`)}'`;
}
