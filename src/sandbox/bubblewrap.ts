/**
 * The OS sandbox a command runs in, built on bubblewrap (adr/0017): a fixed argument list per profile, so
 * what a command may touch follows from the tier it was approved at, whatever it turns out to run.
 *
 *   read-only       the whole file system read-only, a private empty /tmp, no network
 *   project-write   as read-only, plus writes inside the project — except the places there that make a later
 *                   command run a program (every `.git`, hooks directory, `.pi/`, `.agents/`:
 *                   protected-places.ts), which stay read-only (adr/0014) — and still no network
 *   network         as project-write, with the host's network — or, with `sandbox.network.allow`, only the
 *                   allowlist proxy (network-proxy.ts), reached through a relay inside the sandbox
 *
 * In every profile the command keeps no capability (`--cap-drop ALL`: a root user would otherwise keep
 * CAP_SYS_ADMIN inside and could unmount the read-only binds), cannot create user namespaces of its own where
 * bubblewrap supports refusing them, and dies with the process that started it. In read-only and project-write
 * it cannot open a new Unix socket either (seccomp-filter.ts): a socket file reached through the read-only
 * root — docker.sock, an ssh agent, the session bus — would be a way out. In no profile can it use the kernel
 * keyring: the user's session keyring is inherited, and its keys could be read and changed.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, lstatSync, openSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, sep } from "node:path";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { PlacesAtStart } from "./created-places.ts";
import type { DirectoryListings } from "./directory-listings.ts";
import { findProtectedPlaces } from "./protected-places.ts";
import { networkFilterFile, unixSocketFilter, unixSocketFilterFile } from "./seccomp-filter.ts";

export type SandboxProfile = "read-only" | "project-write" | "network";

export interface SandboxPlace {
	/** The project directory (absolute, resolved): writable in `project-write` and `network`. */
	readonly project: string;
	/** Where the command starts (absolute). */
	readonly cwd: string;
	/** Paths no command may write even inside the project: the home directory, pi's agent dir. */
	readonly keepReadOnly: readonly string[];
	/** pi's agent dir, resolved: a project inside it (an extension's checkout) is itself code pi loads. */
	readonly agentDir?: string;
	/** The home whose git config counts (core.hooksPath; the process's home when absent). */
	readonly homeDir?: string;
	/** Where links to guarded files lead, resolved (protected-places.ts): read-only when in the project. */
	readonly linkTargets?: readonly string[];
	/** The session's kept directory listings, for the search of the places to protect (directory-listings.ts). */
	readonly listings?: DirectoryListings;
}

/**
 * The network of the `network` profile when `sandbox.network.allow` is set: only the allowlist proxy, reached
 * through a socat relay inside the sandbox — or none at all where no relay can run (no socat), so an allowlist
 * that cannot be enforced gives no network rather than all of it.
 */
export type AllowlistNetwork =
	| { readonly via: "proxy"; readonly proxySocket: string; readonly socat: string }
	| { readonly via: "none" };

/** What this machine's bubblewrap can do, probed once. */
export type BubblewrapProbe =
	| {
			readonly usable: true;
			readonly path: string;
			readonly refusesUserNamespaces: boolean;
			/**
			 * Whether read-only and project-write refuse new Unix sockets, and every profile the kernel keyring
			 * (seccomp-filter.ts); false where this architecture has no filter, and there a command can reach
			 * local sockets and the user's session keyring (adr/0017).
			 */
			readonly closesUnixSockets: boolean;
	  }
	/** `fix`: what the user can do about it, following why (null: nothing more specific than `why`). */
	| { readonly usable: false; readonly why: string; readonly fix: string | null };

/** What a user on a machine without bubblewrap is told to do. */
export const SANDBOX_INSTALL_HINT =
	"install bubblewrap (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)";

/** Where bubblewrap runs but cannot build a sandbox: what forbids it is the system's, not a missing package. */
const CANNOT_SANDBOX_HINT =
	"allow unprivileged user namespaces (the sysctl user.max_user_namespaces above 0, and kernel.unprivileged_userns_clone=1 where it exists; on Ubuntu 23.10 and later an AppArmor profile for bwrap, or kernel.apparmor_restrict_unprivileged_userns=0), or, in a container, start it with user namespaces, /proc mounts and seccomp filters allowed";

/**
 * The arguments that put one command in the sandbox of `profile`; the command follows them (after `--`).
 * Order matters: later mounts cover earlier ones, so the private /tmp comes before the project (which may lie
 * below /tmp) and the protected paths come last. Where this architecture has filters, bubblewrap reads the
 * profile's seccomp filter from file descriptor FILTER_FD, which the caller opens on the filter file.
 */
export function bubblewrapArguments(
	profile: SandboxProfile,
	place: SandboxPlace,
	probe: BubblewrapProbe & { usable: true },
	network?: AllowlistNetwork,
	seen?: (start: PlacesAtStart) => void,
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
		...(probe.closesUnixSockets ? ["--seccomp", String(FILTER_FD)] : []),
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
	const allowlist = profile === "network" ? network : undefined;
	if (profile !== "network" || allowlist !== undefined) args.push("--unshare-net");
	// Before the project: a project at /tmp itself then hides the socket (no network) rather than get a mount
	// point file created in it.
	if (allowlist?.via === "proxy") args.push("--ro-bind", allowlist.proxySocket, SANDBOX_PROXY_SOCKET);
	const project = place.project;
	const protectedPaths = profile === "read-only" ? null : protectedMounts(place, seen);
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
 * The mounts that keep the project's protected places read-only (protected-places.ts: every git directory and
 * gitfile, hooks directory, `.pi/` and `.agents/` found in it, and the in-project targets of guarded links), or
 * null when the project cannot be made writable safely — then the command gets no writes at all, never
 * unprotected ones:
 * - a project that holds the home directory or pi's agent dir (start-up files, the gate's own config), or lies
 *   inside pi's agent dir (its extensions and packages: the project is itself code pi loads);
 * - a search that gave up (protected-places.ts), or a protected place that is a symbolic link (bubblewrap would
 *   mount on its target and leave the link itself replaceable) or neither a directory nor a file.
 * All of `.git` is covered, not only its hooks and config: git follows `commondir`, `config.worktree` and
 * `modules/*` to other configurations. A place that does not exist yet (`.pi`, a configured `.husky/_`) is
 * covered by an empty read-only directory, so it cannot be created (git passes over an empty `.git` directory
 * and keeps looking upward; pi reads nothing from an empty `.pi`); bubblewrap leaves that empty directory behind
 * as its mount point. Each is a mount point of its own, so it cannot be renamed away either. A file that makes a
 * new place (a `HEAD` beside `objects/` and `refs/`) cannot be kept from being created by a mount: classification
 * makes such a plain write human-only (adr/0014); a program the sandbox runs can still make one, so `seen` gets
 * the places found, and the gate searches again after the run and says what is new (created-places.ts).
 */
function protectedMounts(place: SandboxPlace, seen?: (start: PlacesAtStart) => void): string[] | null {
	if (place.keepReadOnly.some((path) => below(path, place.project))) return null;
	if (place.agentDir !== undefined && below(place.project, place.agentDir)) return null;
	const search = {
		project: place.project,
		homeDir: place.homeDir ?? homedir(),
		linkTargets: place.linkTargets ?? [],
		...(place.listings ? { listings: place.listings } : {}),
	};
	const found = findProtectedPlaces(search);
	if (!("places" in found)) return null;
	seen?.({ search, places: found.places });
	const mounts: string[] = [];
	for (const { path } of found.places) {
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
	network?: AllowlistNetwork,
	seen?: (start: PlacesAtStart) => void,
): string {
	const args = bubblewrapArguments(profile, place, probe, network, seen).map(shellQuote).join(" ");
	const inside =
		profile === "network" && network?.via === "proxy"
			? `/bin/bash -c ${shellQuote(CLOSE_INHERITED + relayScript(network.socat))} pi-permission-hub-relay ${shellQuote(command)}`
			: `/bin/bash -c ${shellQuote(CLOSE_INHERITED + command)}`;
	const filter = probe.closesUnixSockets ? ` ${FILTER_FD}<${shellQuote(filterFileOf(profile))}` : "";
	return `exec ${shellQuote(probe.path)} ${args} -- ${inside}${filter}`;
}

/**
 * What the sandbox's first shell runs before anything else: it closes every descriptor but stdin, stdout and
 * stderr. bubblewrap passes on whatever it gets, and pi's process hands its bash every descriptor it inherited
 * without close-on-exec (from a terminal multiplexer, a supervisor): one open for writing on a file outside
 * the sandbox would be written through by a read-only command. In the sandbox, before the relay (whose
 * descriptors a command could open through /proc) and before the command; on the command's first line, so
 * bash's line numbers in its errors stay the command's own.
 */
const CLOSE_INHERITED =
	// biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, run inside the sandbox
	"for pph_fd in /proc/self/fd/*; do pph_fd=${pph_fd##*/}; ((pph_fd > 2)) && exec {pph_fd}>&-; done; unset pph_fd; ";

/** Where bubblewrap reads the seccomp filter from: the first descriptor after stdin, stdout and stderr. */
const FILTER_FD = 3;

/**
 * The seccomp filter of `profile`: in read-only and project-write the one that refuses Unix sockets; in
 * `network` — approved at network-egress or above, and whose allowlist relay needs a Unix socket to reach the
 * proxy — one that refuses only the kernel keyring calls (the user's session keyring is inherited) and vsock
 * (which would pass the allowlist).
 */
function filterFileOf(profile: SandboxProfile): string {
	return profile === "network" ? networkFilterFile() : unixSocketFilterFile();
}

/** Where the proxy's socket appears inside the sandbox, and the relay's port in the sandbox's own network. */
const SANDBOX_PROXY_SOCKET = "/tmp/.pi-permission-hub-proxy.sock";
const RELAY_PORT = 3128;

/**
 * What runs before the command on the allowlist path, with the command as `$1`. socat relays 127.0.0.1:3128 in
 * the sandbox's own network namespace to the proxy's socket. The command starts only once a connection to that
 * port succeeds — nothing else listens in a new namespace, so that is the relay, listening — or does not start
 * at all. It replaces this shell (`exec`), so it is the process bubblewrap waits for: when it ends, bubblewrap
 * exits, its init in the sandbox is killed (`--die-with-parent`) and the kernel kills whatever is left in the
 * PID namespace with it, the relay included (within milliseconds, measured). Every proxy variable
 * points at the relay (lower case for curl, upper case for the rest; NODE_USE_ENV_PROXY for node's own http and
 * fetch), and none exempts a host: a direct connection has nowhere to go anyway.
 */
function relayScript(socat: string): string {
	const proxy = `http://127.0.0.1:${RELAY_PORT}`;
	const variables = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"];
	return [
		// Silenced: a client hanging up mid-transfer would otherwise print socat's errors into the command's output.
		`${shellQuote(socat)} TCP-LISTEN:${RELAY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${SANDBOX_PROXY_SOCKET} >/dev/null 2>&1 &`,
		"pph_relay=$!",
		// A pipe that never gets data: `read -t` on it waits a millisecond without starting a process (`sleep`
		// would cost more than socat takes to listen).
		"exec {pph_relay_wait}<> <(:)",
		"for ((pph_relay_tries = 0; ; pph_relay_tries++)); do",
		`\t{ : </dev/tcp/127.0.0.1/${RELAY_PORT}; } 2>/dev/null && break`,
		'\tif ((pph_relay_tries == 5000)) || ! kill -0 "$pph_relay" 2>/dev/null; then',
		"\t\techo 'pi-permission-hub: the relay to the network proxy did not start; the command did not run' >&2",
		"\t\texit 1",
		"\tfi",
		'\tread -t 0.001 -u "$pph_relay_wait"',
		"done",
		"exec {pph_relay_wait}<&-",
		"unset pph_relay pph_relay_tries pph_relay_wait NO_PROXY no_proxy",
		`export ${variables.map((name) => `${name}=${proxy}`).join(" ")} NODE_USE_ENV_PROXY=1`,
		'exec /bin/bash -c "$1"',
	].join("\n");
}

/**
 * Programs the sandbox runs are taken only from where the system installs them: a `bwrap` or `socat` found
 * through `PATH` could be one the project planted (a relative or project-local entry), and it would then decide
 * what "sandboxed" means.
 */
const SYSTEM_DIRECTORIES = ["/usr/bin", "/usr/local/bin", "/bin"];

/** `name` in the system's program directories, or null. */
function systemProgram(name: string): string | null {
	return SYSTEM_DIRECTORIES.map((dir) => join(dir, name)).find((path) => existsSync(path)) ?? null;
}

/**
 * The system's socat (for the allowlist relay, looked up as bwrap is), or null: then a `network` profile with an
 * allowlist gets no network (`via: "none"`).
 */
export function findSocat(): string | null {
	return systemProgram("socat");
}

let probed: Promise<BubblewrapProbe> | null = null;

/**
 * Whether bubblewrap is installed and can build a sandbox here (user namespaces may be forbidden: some
 * container runtimes, AppArmor on Ubuntu 24.04). Probed once per process by running a real sandbox, in the
 * background: a session starts while it runs (about 20 ms), and its first bash call waits for the answer.
 */
export function probeBubblewrap(): Promise<BubblewrapProbe> {
	probed ??= probeAt(systemProgram("bwrap"));
	return probed;
}

/** The probe for a given binary (tests point it at a missing one). */
export async function probeAt(path: string | null): Promise<BubblewrapProbe> {
	if (path === null) {
		return { usable: false, why: "bubblewrap (bwrap) is not installed", fix: SANDBOX_INSTALL_HINT };
	}
	const help = await run(path, ["--help"]);
	if (help.failure !== null) {
		return {
			usable: false,
			why: `${path} --help failed: ${help.failure}`,
			fix: `reinstall bubblewrap, or put a working bwrap before ${path} on PATH`,
		};
	}
	const found: BubblewrapProbe & { usable: true } = {
		usable: true,
		path,
		refusesUserNamespaces: help.stdout.includes("--disable-userns"),
		closesUnixSockets: unixSocketFilter(process.arch) !== null,
	};
	let filter: number | null = null;
	let failure: string | null;
	try {
		// The same arguments a command gets, the seccomp filter included: bubblewrap in some containers can build
		// a namespace but not mount `/proc` in it, a kernel may refuse the filter, and a probe that asked for less
		// would call it usable.
		filter = found.closesUnixSockets ? openSync(unixSocketFilterFile(), "r") : null;
		const profile = bubblewrapArguments("read-only", { project: "/", cwd: "/", keepReadOnly: [] }, found);
		failure = (await run(path, [...profile, "--", "/bin/true"], filter)).failure;
	} catch (error) {
		failure = errorMessage(error);
	} finally {
		if (filter !== null) closeSync(filter);
	}
	if (failure === null) return found;
	return {
		usable: false,
		why: `bubblewrap cannot create a sandbox here (user namespaces or seccomp filters may be disabled): ${failure}`,
		fix: CANNOT_SANDBOX_HINT,
	};
}

/** Run `path` with a 5 s limit: its output, and why it failed (its stderr, else how it ended), or null. */
function run(
	path: string,
	args: readonly string[],
	fd3: number | null = null,
): Promise<{ readonly stdout: string; readonly failure: string | null }> {
	return new Promise((resolve) => {
		const child = spawn(path, args, { stdio: ["ignore", "pipe", "pipe", fd3 ?? "ignore"], timeout: 5000 });
		let stdout = "";
		let stderr = "";
		child.stdout?.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		child.stderr?.on("data", (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.on("error", (error) => resolve({ stdout, failure: errorMessage(error) }));
		child.on("close", (code, signal) => {
			const failed = code !== 0 ? stderr.trim() || `exit ${code ?? signal}` : null;
			resolve({ stdout, failure: failed });
		});
	});
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
