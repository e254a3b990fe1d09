/**
 * Directories that belong to the operating system: writing there needs (or amounts to) administrator rights,
 * so a write under one is `privileged`. Device and temp locations that every user writes are exempt.
 */
import type { PathTouch } from "./action.ts";

const SYSTEM_DIRECTORIES: readonly string[] = [
	"/etc",
	"/usr",
	"/bin",
	"/sbin",
	"/boot",
	"/lib",
	"/lib32",
	"/lib64",
	"/libx32",
	"/sys",
	"/proc",
	"/dev",
	"/var",
	"/opt",
	"/root",
	"/snap",
	"/System",
	"/Library",
	"/private/etc",
	"/private/var",
];

/** Writable by everyone or harmless sinks, though they sit under a system directory. */
const EXEMPT_DIRECTORIES: readonly string[] = [
	"/var/tmp",
	"/var/folders",
	"/private/var/tmp",
	"/private/var/folders",
	"/private/tmp",
	"/dev/fd",
	"/dev/shm",
	"/dev/pts",
	"/proc/self/fd",
];

/** Not `/dev/tty`: what is written there reaches the person's terminal, where it could draw a fake dialog. */
const EXEMPT_FILES: ReadonlySet<string> = new Set([
	"/dev/null",
	"/dev/zero",
	"/dev/stdin",
	"/dev/stdout",
	"/dev/stderr",
	"/dev/random",
	"/dev/urandom",
]);

/** `[dir, dir + "/"]` pairs, built once: every written path is checked against all of them. */
const SYSTEM_PREFIXES = withSlash(SYSTEM_DIRECTORIES);
const EXEMPT_PREFIXES = withSlash(EXEMPT_DIRECTORIES);

function withSlash(dirs: readonly string[]): readonly (readonly [string, string])[] {
	return dirs.map((dir) => [dir, `${dir}/`]);
}

/** `isWithin(dir, path)` for one of the prepared directories. */
function within([dir, prefix]: readonly [string, string], path: string): boolean {
	return path === dir || path.startsWith(prefix);
}

export function isSystemPath(absolute: string): boolean {
	if (absolute === "/") return true;
	if (!absolute.startsWith("/")) return false;
	if (EXEMPT_FILES.has(absolute)) return false;
	if (EXEMPT_PREFIXES.some((dir) => within(dir, absolute))) return false;
	return SYSTEM_PREFIXES.some((dir) => within(dir, absolute));
}

/** A write whose typed, absolute or resolved form lies in a system directory. */
export function writesSystemPath(touch: PathTouch): boolean {
	return touch.access === "write" && (isSystemPath(touch.absolute) || isSystemPath(touch.resolved));
}

/**
 * Sinks a redirect may name without writing a file: `> /dev/null`, `2> /dev/stderr`, `>& /dev/fd/2`. Matched as
 * typed, exactly: the kernel resolves `/dev/fd/../../x` through the `/proc/self/fd` link to a plain file.
 */
export function isHarmlessSink(value: string): boolean {
	return EXEMPT_FILES.has(value) || /^\/dev\/fd\/[0-9]+$/.test(value);
}

/**
 * Opening a device, even to read, can act on it: a terminal gives up the keystrokes the person types next (an
 * answer meant for a dialog), a watchdog starts counting down to a reboot, a tape rewinds, a CD tray closes;
 * reading `/proc/kmsg` takes the kernel's messages away from the system log. The harmless devices are exempt.
 */
export function opensDevice(absolute: string): boolean {
	if (absolute === "/proc/kmsg") return true;
	if (!absolute.startsWith("/dev/") || isHarmlessSink(absolute)) return false;
	return !within(DEV_SHM, absolute);
}

const DEV_SHM: readonly [string, string] = ["/dev/shm", "/dev/shm/"];
