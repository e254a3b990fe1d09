/**
 * The seccomp filter that keeps a sandboxed command away from local Unix sockets (adr/0017). A read-only bind
 * does not stop `connect` on a socket file, and a new network namespace cuts off only abstract sockets, so
 * without it a command approved as a `read` could reach docker.sock, an ssh agent or the user's session bus
 * (which starts any program outside the sandbox). The filter refuses, with EPERM:
 *
 *   socket(AF_UNIX, …)                      a new socket could connect to any socket file
 *   socket(AF_VSOCK, …)                     the host of a virtual machine, past the network namespace
 *   socketpair(…) but stream or seqpacket    a datagram pair can still `sendto` any datagram socket file
 *   io_uring_setup, _enter, _register        io_uring creates and connects sockets without socket()/connect()
 *   add_key, request_key, keyctl            the session keyring is inherited through bubblewrap: its keys could
 *                                           be read, and keys added, changed or revoked, outside the sandbox
 *   x32 system calls (x86_64)                the same calls under other numbers
 *
 * and kills the process at any system call of another architecture's ABI — a 32-bit program, or `int 0x80`
 * from a 64-bit one: there sockets are made through socketcall(2), whose arguments a filter cannot read, and
 * refusing every call (exit included) could leave a program spinning instead of failing.
 * A stream or seqpacket socketpair is connected at birth and reaches nothing but its other end, so pipes between
 * processes (Node's child processes, Python's socketpair()) keep working.
 *
 * The program is classic BPF as the kernel's `struct sock_filter` array: u16 code, u8 jt, u8 jf, u32 k, in the
 * byte order of the machine (little-endian on both architectures there is a filter for).
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";

/** What differs between the architectures there is a filter for (their `process.arch` names). */
interface ArchNumbers {
	/** AUDIT_ARCH_* as `seccomp_data.arch` reports the native ABI. */
	readonly auditArch: number;
	readonly socket: number;
	readonly socketpair: number;
	/** add_key, request_key, keyctl: the kernel's key management. */
	readonly keys: readonly [number, number, number];
	/** x86_64 only: numbers with this bit set are the x32 ABI, reported under the native arch. */
	readonly x32Bit?: number;
	/** The 32-bit ABI this one also runs: its numbers for add_key, request_key, keyctl, socket, socketcall. */
	readonly compat: {
		readonly auditArch: number;
		readonly keys: readonly [number, number, number];
		readonly socket: number;
		readonly socketcall?: number;
	};
}

const I386 = { auditArch: 0x40000003, keys: [286, 287, 288], socket: 359, socketcall: 102 } as const;
const ARM = { auditArch: 0x40000028, keys: [309, 310, 311], socket: 281 } as const;

const ARCH_NUMBERS: ReadonlyMap<string, ArchNumbers> = new Map([
	[
		"x64",
		{
			auditArch: 0xc000003e,
			socket: 41,
			socketpair: 53,
			keys: [248, 249, 250],
			x32Bit: 0x40000000,
			compat: I386,
		},
	],
	["arm64", { auditArch: 0xc00000b7, socket: 198, socketpair: 199, keys: [217, 218, 219], compat: ARM }],
]);

/** io_uring's calls have the same numbers on every architecture (added after the tables were unified). */
const IO_URING_SETUP = 425;
const IO_URING_ENTER = 426;
const IO_URING_REGISTER = 427;

/** Offsets in `struct seccomp_data`: int nr, u32 arch, u64 instruction_pointer, u64 args[6]. */
const NR = 0;
const ARCH = 4;
/** The low 32 bits of args[0] and args[1] on a little-endian machine: the int family and type. */
const ARG0_LOW = 16;
const ARG1_LOW = 24;

const AF_UNIX = 1;
/** vsock is not namespaced: a new network namespace leaves a virtual machine's host (CID 2) reachable. */
const AF_VSOCK = 40;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;
/** SOCK_NONBLOCK and SOCK_CLOEXEC are or-ed into the type above this mask. */
const SOCK_TYPE_MASK = 0xf;

const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const EPERM = 1;

/** Classic BPF opcodes (linux/bpf_common.h). */
const LOAD_WORD_ABSOLUTE = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_IF_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_IF_AT_LEAST = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const AND = 0x54; // BPF_ALU | BPF_AND | BPF_K
const RETURN = 0x06; // BPF_RET | BPF_K

/** One instruction, its jumps named by label; no label means the next instruction. */
interface Instruction {
	readonly code: number;
	readonly k: number;
	readonly ifTrue?: string;
	readonly ifFalse?: string;
}
type Step = Instruction | { readonly label: string };

const load = (offset: number): Instruction => ({ code: LOAD_WORD_ABSOLUTE, k: offset });
const ret = (action: number): Instruction => ({ code: RETURN, k: action });

function program(arch: ArchNumbers): Step[] {
	return [
		load(ARCH),
		{ code: JUMP_IF_EQUAL, k: arch.auditArch, ifFalse: "kill" },
		load(NR),
		...(arch.x32Bit === undefined ? [] : [{ code: JUMP_IF_AT_LEAST, k: arch.x32Bit, ifTrue: "refuse" }]),
		{ code: JUMP_IF_EQUAL, k: arch.socket, ifTrue: "socket" },
		{ code: JUMP_IF_EQUAL, k: arch.socketpair, ifTrue: "socketpair" },
		...arch.keys.map((nr): Instruction => ({ code: JUMP_IF_EQUAL, k: nr, ifTrue: "refuse" })),
		{ code: JUMP_IF_EQUAL, k: IO_URING_SETUP, ifTrue: "refuse" },
		{ code: JUMP_IF_EQUAL, k: IO_URING_ENTER, ifTrue: "refuse" },
		{ code: JUMP_IF_EQUAL, k: IO_URING_REGISTER, ifTrue: "refuse", ifFalse: "allow" },
		{ label: "socket" },
		load(ARG0_LOW),
		{ code: JUMP_IF_EQUAL, k: AF_UNIX, ifTrue: "refuse" },
		{ code: JUMP_IF_EQUAL, k: AF_VSOCK, ifTrue: "refuse", ifFalse: "allow" },
		{ label: "socketpair" },
		load(ARG1_LOW),
		{ code: AND, k: SOCK_TYPE_MASK },
		{ code: JUMP_IF_EQUAL, k: SOCK_STREAM, ifTrue: "allow" },
		{ code: JUMP_IF_EQUAL, k: SOCK_SEQPACKET, ifTrue: "allow" },
		{ label: "refuse" },
		ret(SECCOMP_RET_ERRNO | EPERM),
		{ label: "allow" },
		ret(SECCOMP_RET_ALLOW),
		{ label: "kill" },
		ret(SECCOMP_RET_KILL_PROCESS),
	];
}

/**
 * The filter of the `network` profile, which keeps Unix sockets and 32-bit programs (adr/0017): it refuses the
 * key calls and vsock sockets (past the allowlist's network namespace to a virtual machine's host), under the
 * native, x32 and 32-bit numbers alike — and i386's socketcall, whose arguments a filter cannot read. A call of
 * any other ABI is refused.
 */
function networkProgram(arch: ArchNumbers): Step[] {
	const x32 = arch.x32Bit;
	const native = [...arch.keys.map((nr) => [nr, "refuse"] as const), [arch.socket, "socket"] as const];
	const compat = arch.compat;
	return [
		load(ARCH),
		{ code: JUMP_IF_EQUAL, k: arch.auditArch, ifFalse: "compat" },
		load(NR),
		...dispatch(
			x32 === undefined ? native : [...native, ...native.map(([nr, to]) => [nr | x32, to] as const)],
		),
		{ label: "compat" },
		{ code: JUMP_IF_EQUAL, k: compat.auditArch, ifFalse: "refuse" },
		load(NR),
		...dispatch([
			...compat.keys.map((nr) => [nr, "refuse"] as const),
			...(compat.socketcall === undefined ? [] : [[compat.socketcall, "refuse"] as const]),
			[compat.socket, "socket"] as const,
		]),
		{ label: "socket" },
		load(ARG0_LOW),
		{ code: JUMP_IF_EQUAL, k: AF_VSOCK, ifTrue: "refuse", ifFalse: "allow" },
		{ label: "refuse" },
		ret(SECCOMP_RET_ERRNO | EPERM),
		{ label: "allow" },
		ret(SECCOMP_RET_ALLOW),
	];
}

/** Jump to each case's label when the loaded word equals its number; to `allow` when none does. */
function dispatch(cases: readonly (readonly [number, string])[]): Instruction[] {
	return cases.map(([k, to], index) => ({
		code: JUMP_IF_EQUAL,
		k,
		ifTrue: to,
		...(index === cases.length - 1 ? { ifFalse: "allow" } : {}),
	}));
}

/** The program as `struct sock_filter` bytes, jumps resolved to forward offsets. */
function assemble(steps: readonly Step[]): Uint8Array {
	const instructions: Instruction[] = [];
	const labels = new Map<string, number>();
	for (const step of steps) {
		if ("label" in step) labels.set(step.label, instructions.length);
		else instructions.push(step);
	}
	const bytes = new DataView(new ArrayBuffer(instructions.length * 8));
	instructions.forEach((instruction, index) => {
		const jump = (label: string | undefined): number => {
			if (label === undefined) return 0;
			const target = labels.get(label);
			// BPF jumps only forward, by at most 255 instructions.
			if (target === undefined || target <= index || target - index - 1 > 255)
				throw new Error(`seccomp filter: no forward jump to ${label} from ${index}`);
			return target - index - 1;
		};
		bytes.setUint16(index * 8, instruction.code, true);
		bytes.setUint8(index * 8 + 2, jump(instruction.ifTrue));
		bytes.setUint8(index * 8 + 3, jump(instruction.ifFalse));
		bytes.setUint32(index * 8 + 4, instruction.k, true);
	});
	return new Uint8Array(bytes.buffer);
}

/** The filter for `arch` (a `process.arch` name), or null where there is none: then local sockets stay open. */
export function unixSocketFilter(arch: string): Uint8Array | null {
	const numbers = ARCH_NUMBERS.get(arch);
	return numbers === undefined ? null : assemble(program(numbers));
}

/** The `network` profile's filter for `arch`, or null where there is none: then keyring and vsock stay open. */
export function networkFilter(arch: string): Uint8Array | null {
	const numbers = ARCH_NUMBERS.get(arch);
	return numbers === undefined ? null : assemble(networkProgram(numbers));
}

const written = new Map<string, string>();

/**
 * The filter as a file bubblewrap can be handed: one per user and filter, shared by their pi processes, in a
 * directory only they can enter (a process killed by a signal leaves nothing new behind). Checked on every use
 * and written anew when it is gone, changed or no longer this user's own regular file. Under /dev/shm, else
 * /tmp — never TMPDIR, which could be inside a project — both invisible from every sandbox (bubblewrap gives each
 * a /dev and a /tmp of its own). Throws where this architecture has no filter.
 */
export function unixSocketFilterFile(): string {
	return filterFile("refuse-unix-sockets", unixSocketFilter(process.arch));
}

/** The `network` profile's filter as a file, kept as `unixSocketFilterFile` keeps its own. */
export function networkFilterFile(): string {
	return filterFile("network-profile", networkFilter(process.arch));
}

function filterFile(name: string, filter: Uint8Array | null): string {
	if (filter === null) throw new Error(`no seccomp filter for ${process.arch}`);
	const known = written.get(name);
	if (known !== undefined && holds(known, filter)) return known;
	const file = filterFileIn(FILTER_BASES, filter, name);
	written.set(name, file);
	return file;
}

const FILTER_BASES = ["/dev/shm", "/tmp"];

/** The filter's file under the first of `bases` that holds (or can hold) this user's private directory. */
export function filterFileIn(
	bases: readonly string[],
	filter: Uint8Array,
	kind = "refuse-unix-sockets",
): string {
	const name = `${kind}-${createHash("sha256").update(filter).digest("hex").slice(0, 16)}.bpf`;
	const file = join(userDirectory(bases), name);
	if (!holds(file, filter)) writeFileAtomic.sync(file, Buffer.from(filter), { mode: 0o600 });
	return file;
}

/**
 * This user's directory for the filter: a real directory they own that nobody else may enter, made when it
 * is missing. One someone else made (or made reachable) is never used: then a new private one for this process.
 */
function userDirectory(bases: readonly string[]): string {
	const uid = process.getuid?.() ?? 0;
	for (const base of bases) {
		const dir = join(base, `pi-permission-hub-${uid}`);
		try {
			mkdirSync(dir, { mode: 0o700 });
		} catch {
			// It exists already (checked below), or this base cannot be written: try the next.
		}
		if (isPrivateDirectory(dir, uid)) return dir;
	}
	const dir = mkdtempSync(join(bases.at(-1) ?? "/tmp", "pph-seccomp-"));
	process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
	return dir;
}

function isPrivateDirectory(dir: string, uid: number): boolean {
	try {
		const stat = lstatSync(dir);
		return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0;
	} catch {
		return false;
	}
}

/** The file is this user's own regular file (not a link, which could point anywhere) with exactly `filter` in it. */
function holds(path: string, filter: Uint8Array): boolean {
	return isOwnFile(path) && Buffer.from(filter).equals(readFileSync(path));
}

/** Not a symbolic link, which could point anywhere; owned by this user, so no one else put it there. */
function isOwnFile(path: string): boolean {
	try {
		const stat = lstatSync(path);
		return stat.isFile() && stat.uid === process.getuid?.();
	} catch {
		return false;
	}
}
