/**
 * The filter that closes local Unix sockets in read-only and project-write (adr/0017): its program, run through
 * a small classic-BPF interpreter for both architectures, and real sandboxes that try to reach a real Unix socket
 * server on the host, enter other ABIs and use io_uring — and real commands that must still work under it.
 */
import { spawnSync } from "node:child_process";
import {
	chmodSync,
	existsSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	type BubblewrapProbe,
	findSocat,
	probeAt,
	probeBubblewrap,
	type SandboxProfile,
	sandboxedCommand,
} from "../../src/sandbox/bubblewrap.ts";
import {
	filterFileIn,
	networkFilter,
	unixSocketFilter,
	unixSocketFilterFile,
} from "../../src/sandbox/seccomp-filter.ts";
import { tempDir } from "../policy/fixtures.ts";
import { runShell } from "./shell-run.ts";

/** The actions, as the kernel's seccomp.h spells them. */
const ALLOW = 0x7fff0000;
const REFUSE_EPERM = 0x00050001; // SECCOMP_RET_ERRNO | EPERM
const KILL_PROCESS = 0x80000000;

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_VSOCK = 40;
const SOCK_STREAM = 1;
const SOCK_DGRAM = 2;
const SOCK_RAW = 3;
const SOCK_SEQPACKET = 5;
const SOCK_CLOEXEC = 0x80000;

const ARCHES = {
	x64: {
		auditArch: 0xc000003e,
		socket: 41,
		socketpair: 53,
		keys: [248, 249, 250],
		getpid: 39,
		instructions: 22,
		foreign: { i386: 0x40000003 },
	},
	arm64: {
		auditArch: 0xc00000b7,
		socket: 198,
		socketpair: 199,
		keys: [217, 218, 219],
		getpid: 172,
		instructions: 21,
		foreign: { arm: 0x40000028 },
	},
} as const;

interface Call {
	readonly arch: number;
	readonly nr: number;
	/** The low 32 bits of each argument. */
	readonly args?: readonly number[];
}

/** Runs the filter on one system call as the kernel would: `struct seccomp_data` in, the action out. */
function evaluate(filter: Uint8Array, call: Call): number {
	const program = new DataView(filter.buffer, filter.byteOffset, filter.byteLength);
	const data = new DataView(new ArrayBuffer(64));
	data.setInt32(0, call.nr, true);
	data.setUint32(4, call.arch, true);
	(call.args ?? []).forEach((arg, index) => {
		data.setBigUint64(16 + 8 * index, BigInt(arg), true);
	});
	let accumulator = 0;
	for (let pc = 0; pc < filter.length / 8; pc++) {
		const code = program.getUint16(pc * 8, true);
		const ifTrue = program.getUint8(pc * 8 + 2);
		const ifFalse = program.getUint8(pc * 8 + 3);
		const k = program.getUint32(pc * 8 + 4, true);
		if (code === 0x20) accumulator = data.getUint32(k, true);
		else if (code === 0x54) accumulator = (accumulator & k) >>> 0;
		else if (code === 0x15) pc += accumulator === k ? ifTrue : ifFalse;
		else if (code === 0x35) pc += accumulator >= k ? ifTrue : ifFalse;
		else if (code === 0x06) return k;
		else throw new Error(`unexpected opcode 0x${code.toString(16)} at ${pc}`);
	}
	throw new Error("the filter ran off its end");
}

describe("the filter program", () => {
	for (const [name, arch] of Object.entries(ARCHES)) {
		describe(name, () => {
			const filter = unixSocketFilter(name);
			if (filter === null) throw new Error(`no filter for ${name}`);
			const native = (nr: number, ...args: number[]): number =>
				evaluate(filter, { arch: arch.auditArch, nr, args });

			it("is whole sock_filter instructions: loads the arch first, every jump lands inside, ends in a return", () => {
				expect(filter.length).toBe(arch.instructions * 8);
				const program = new DataView(filter.buffer, filter.byteOffset, filter.byteLength);
				expect([program.getUint16(0, true), program.getUint32(4, true)]).toEqual([0x20, 4]);
				for (let pc = 0; pc < arch.instructions; pc++) {
					// BPF_JMP is class 5; the other instructions go on to the next one or return.
					if ((program.getUint16(pc * 8, true) & 0x07) !== 0x05) continue;
					const farthest = pc + 1 + Math.max(program.getUint8(pc * 8 + 2), program.getUint8(pc * 8 + 3));
					expect(farthest).toBeLessThan(arch.instructions);
				}
				expect(program.getUint16((arch.instructions - 1) * 8, true)).toBe(0x06);
			});

			it("refuses a Unix socket, allows the other families", () => {
				expect(native(arch.socket, AF_UNIX, SOCK_STREAM)).toBe(REFUSE_EPERM);
				expect(native(arch.socket, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC)).toBe(REFUSE_EPERM);
				expect(native(arch.socket, AF_INET, SOCK_STREAM)).toBe(ALLOW);
				expect(native(arch.socket, AF_INET6, SOCK_DGRAM)).toBe(ALLOW);
				// Not namespaced: it reaches the host of a virtual machine whatever the network namespace.
				expect(native(arch.socket, AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC)).toBe(REFUSE_EPERM);
			});

			it("allows a stream or seqpacket socketpair, refuses a datagram one (it can sendto any socket file)", () => {
				expect(native(arch.socketpair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC)).toBe(ALLOW);
				expect(native(arch.socketpair, AF_UNIX, SOCK_SEQPACKET)).toBe(ALLOW);
				expect(native(arch.socketpair, AF_UNIX, SOCK_DGRAM)).toBe(REFUSE_EPERM);
				// AF_UNIX makes a SOCK_RAW pair a datagram pair.
				expect(native(arch.socketpair, AF_UNIX, SOCK_RAW)).toBe(REFUSE_EPERM);
			});

			it("refuses add_key, request_key and keyctl: the session keyring is the host's", () => {
				for (const nr of arch.keys) expect(native(nr)).toBe(REFUSE_EPERM);
			});

			it("refuses io_uring, which makes and connects sockets without either call; allows the rest", () => {
				for (const nr of [425, 426, 427]) expect(native(nr)).toBe(REFUSE_EPERM);
				expect(native(arch.getpid)).toBe(ALLOW);
				expect(native(0)).toBe(ALLOW);
			});

			it("kills a process at any call of a foreign ABI, whatever the call", () => {
				for (const foreign of Object.values(arch.foreign)) {
					expect(evaluate(filter, { arch: foreign, nr: 20 })).toBe(KILL_PROCESS);
					expect(evaluate(filter, { arch: foreign, nr: arch.socket, args: [AF_INET] })).toBe(KILL_PROCESS);
				}
				expect(evaluate(filter, { arch: 0, nr: arch.getpid })).toBe(KILL_PROCESS);
			});
		});
	}

	it("x86_64 refuses the x32 ABI, the same calls under numbers with bit 30", () => {
		const filter = unixSocketFilter("x64");
		if (filter === null) throw new Error("no filter for x64");
		const x32 = (nr: number) =>
			evaluate(filter, { arch: ARCHES.x64.auditArch, nr: 0x40000000 | nr, args: [AF_UNIX] });
		expect(x32(ARCHES.x64.socket)).toBe(REFUSE_EPERM);
		expect(x32(ARCHES.x64.getpid)).toBe(REFUSE_EPERM);
	});

	it("the network profile's refuses the key calls and vsock, under native, x32 and 32-bit numbers alike", () => {
		for (const [name, arch] of Object.entries(ARCHES)) {
			const filter = networkFilter(name);
			if (filter === null) throw new Error(`no network filter for ${name}`);
			const call = (auditArch: number, nr: number, ...args: number[]) =>
				evaluate(filter, { arch: auditArch, nr, args });
			for (const nr of arch.keys) expect(call(arch.auditArch, nr)).toBe(REFUSE_EPERM);
			expect(call(arch.auditArch, arch.socket, AF_VSOCK, SOCK_STREAM)).toBe(REFUSE_EPERM);
			expect(call(arch.auditArch, arch.socket, AF_UNIX, SOCK_STREAM)).toBe(ALLOW);
			expect(call(arch.auditArch, arch.socket, AF_INET, SOCK_STREAM)).toBe(ALLOW);
			expect(call(arch.auditArch, arch.getpid)).toBe(ALLOW);
			const compat =
				name === "x64"
					? { arch: 0x40000003, keys: [286, 287, 288], socket: 359 }
					: { arch: 0x40000028, keys: [309, 310, 311], socket: 281 };
			for (const nr of compat.keys) expect(call(compat.arch, nr)).toBe(REFUSE_EPERM);
			expect(call(compat.arch, compat.socket, AF_VSOCK, SOCK_STREAM)).toBe(REFUSE_EPERM);
			expect(call(compat.arch, compat.socket, AF_INET, SOCK_STREAM)).toBe(ALLOW);
			expect(call(compat.arch, 20)).toBe(ALLOW);
			// Neither the native ABI nor the 32-bit one it runs.
			expect(call(0xc0000028, arch.getpid)).toBe(REFUSE_EPERM);
		}
		const x64 = networkFilter("x64");
		if (x64 === null) throw new Error("no network filter for x64");
		const x32 = (nr: number, ...args: number[]) =>
			evaluate(x64, { arch: ARCHES.x64.auditArch, nr: 0x40000000 | nr, args });
		for (const nr of ARCHES.x64.keys) expect(x32(nr)).toBe(REFUSE_EPERM);
		expect(x32(ARCHES.x64.socket, AF_VSOCK, SOCK_STREAM)).toBe(REFUSE_EPERM);
		// i386's socketcall: its arguments are behind a pointer, so a vsock socket could hide there.
		expect(evaluate(x64, { arch: 0x40000003, nr: 102, args: [1] })).toBe(REFUSE_EPERM);
	});

	it("there is none for an architecture without one", () => {
		for (const arch of ["ia32", "arm", "riscv64", "ppc64", "s390x"])
			expect(unixSocketFilter(arch)).toBeNull();
	});
});

const supported = unixSocketFilter(process.arch) !== null;

describe.skipIf(!supported)("the filter file", () => {
	it("is this user's own, private, holds the filter, and is written once", () => {
		const file = unixSocketFilterFile();
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
		expect(new Uint8Array(readFileSync(file))).toEqual(unixSocketFilter(process.arch));
		expect(unixSocketFilterFile()).toBe(file);
	});

	it("is one per user, kept in a private directory, and written anew when it is gone or changed", () => {
		const filter = unixSocketFilter(process.arch) ?? new Uint8Array();
		const base = mkdtempSync(join(tmpdir(), "pph-seccomp-base-"));
		try {
			const file = filterFileIn([base], filter);
			expect(dirname(file)).toBe(join(base, `pi-permission-hub-${process.getuid?.()}`));
			expect(filterFileIn([base], filter)).toBe(file);
			rmSync(file);
			expect(new Uint8Array(readFileSync(filterFileIn([base], filter)))).toEqual(filter);
			writeFileSync(file, "not a filter");
			expect(new Uint8Array(readFileSync(filterFileIn([base], filter)))).toEqual(filter);
			// A directory others may enter is not used: the file goes to a private one of this process.
			chmodSync(dirname(file), 0o755);
			const elsewhere = filterFileIn([base], filter);
			expect(dirname(elsewhere)).not.toBe(dirname(file));
			expect(statSync(dirname(elsewhere)).mode & 0o777).toBe(0o700);
		} finally {
			rmSync(base, { recursive: true, force: true });
		}
	});
});

let probe: BubblewrapProbe & { usable: true };
let server: Server;
let project = "";
let socketPath = "";
let connections = 0;

beforeAll(async () => {
	const found = await probeBubblewrap();
	if (!found.usable) throw new Error(`these tests need bubblewrap (.ci/run installs it): ${found.why}`);
	if (!hasPython || socat === null)
		throw new Error("these tests need python3 and socat (.ci/run installs them)");
	if (NODE === undefined)
		throw new Error("these tests need a node outside /tmp (a sandbox has its own /tmp)");
	probe = found;
	// In the project (below /tmp): visible from every profile, read-only in read-only — connect needs no write.
	// One for the whole file: the server listens there throughout.
	project = realpathSync(mkdtempSync(join(tmpdir(), "pph-seccomp-test-")));
	socketPath = join(project, "agent.sock");
	server = createServer((socket) => {
		connections++;
		socket.end("hello from the host socket\n");
	});
	await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	rmSync(project, { recursive: true, force: true });
});

/**
 * A node the sandbox can see: every profile has a private /tmp, so one installed under /tmp (a CI checkout
 * there, with its node dependency) is not there inside.
 */
const NODE = [process.execPath, "/usr/bin/node", "/usr/local/bin/node"]
	.filter((path) => existsSync(path))
	.map((path) => realpathSync(path))
	.find((path) => !path.startsWith("/tmp/"));

/** Run `script` with bash inside `profile`, asynchronously: the host's socket server lives in this process. */
async function run(profile: SandboxProfile, script: string) {
	const { code, out, err } = await runShell(
		sandboxedCommand(script, profile, { project, cwd: project, keepReadOnly: [] }, probe),
	);
	// One stream, in order enough for these checks: what a command said, and why it failed.
	return { code, out: out + err };
}

/** Both are installed by `.ci/run`: python3 makes the raw system calls, socat is a second client. */
const hasPython = spawnSync("python3", ["-c", "pass"]).status === 0;
const socat = findSocat();

/** Connects to the host's socket and prints what it says, or the error's code. */
function nodeClient(): string {
	return `'${NODE}' -e 'require("node:net").connect(${JSON.stringify(socketPath)}).on("data", (d) => process.stdout.write(d)).on("error", (e) => { console.log(e.code); process.exitCode = 3; })'`;
}

/** Clients that connect to the host's socket. */
const clients = [
	{ name: "node", script: nodeClient },
	{ name: "socat", script: () => `'${socat}' -u UNIX-CONNECT:${socketPath} -` },
];

describe.skipIf(!supported)("read-only and project-write: no local Unix socket", () => {
	for (const profile of ["read-only", "project-write"] as const) {
		for (const client of clients) {
			it(`${profile}: ${client.name} cannot connect to a socket file on the host, and the server sees nothing`, async () => {
				const before = connections;
				const result = await run(profile, client.script());
				expect(result.code).not.toBe(0);
				expect(result.out).toMatch(/EPERM|Operation not permitted/);
				expect(result.out).not.toContain("hello from the host socket");
				expect(connections).toBe(before);
			});
		}
	}

	it("network (approved at network-egress or above) keeps them: there the command connects", async () => {
		const before = connections;
		const result = await run("network", nodeClient());
		expect(result.out).toContain("hello from the host socket");
		expect(connections).toBe(before + 1);
	});

	it("a datagram socketpair, which could sendto a socket file, is refused", async () => {
		const result = await run(
			"read-only",
			`python3 -c 'import socket; socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)'`,
		);
		expect(result.code).not.toBe(0);
		expect(result.out).toContain("Operation not permitted");
	});

	it("a vsock socket, which reaches a virtual machine's host past any network namespace (and allowlist), is refused", async () => {
		for (const profile of ["read-only", "project-write", "network"] as const) {
			const result = await run(
				profile,
				`python3 -c 'import socket; s = socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM); print("created")'`,
			);
			expect(result.code).not.toBe(0);
			expect(result.out).not.toContain("created");
			expect(result.out).toContain("Operation not permitted");
		}
	});

	it("in every profile, the session keyring it inherits can be neither read nor written", () => {
		// A login session keyring (pam_keyinit), holding a secret, as the one pi would run in.
		const host = `
import ctypes, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True); libc.syscall.restype = ctypes.c_long
libc.syscall(250, 1, b"pph-test-session")
libc.syscall(248, b"user", b"pph-secret", b"hunter2", 7, ctypes.c_long(-3))
subprocess.run(["/bin/bash", "-c", sys.argv[1]])
print("host finds the forged key:", libc.syscall(250, 10, ctypes.c_long(-3), b"user", b"pph-forged", 0) > 0)
`;
		const inside = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True); libc.syscall.restype = ctypes.c_long
key = libc.syscall(250, 10, ctypes.c_long(-3), b"user", b"pph-secret", 0)
print("search:", os.strerror(ctypes.get_errno()) if key < 0 else key)
added = libc.syscall(248, b"user", b"pph-forged", b"x", 1, ctypes.c_long(-3))
print("add:", os.strerror(ctypes.get_errno()) if added < 0 else added)
`;
		for (const profile of ["read-only", "project-write", "network"] as const) {
			const line = sandboxedCommand(
				`python3 -c '${inside}'`,
				profile,
				{ project, cwd: project, keepReadOnly: [] },
				probe,
			);
			const result = spawnSync("python3", ["-c", host, line], { encoding: "utf8" });
			expect(result.stdout).toBe(
				"search: Operation not permitted\nadd: Operation not permitted\nhost finds the forged key: False\n",
			);
		}
	});

	it("io_uring, which creates and connects sockets without socket(), is refused", async () => {
		const result = await run(
			"project-write",
			`python3 -c 'import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); r = libc.syscall(425, 4, ctypes.create_string_buffer(120)); print(r, os.strerror(ctypes.get_errno()))'`,
		);
		expect(result.out).toBe("-1 Operation not permitted\n");
	});

	it.skipIf(process.arch !== "x64")("x86_64: an x32 system call is refused", async () => {
		const result = await run(
			"read-only",
			`python3 -c 'import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); r = libc.syscall(0x40000000 | 39); print(r, os.strerror(ctypes.get_errno()))'`,
		);
		expect(result.out).toBe("-1 Operation not permitted\n");
	});

	it.skipIf(process.arch !== "x64")(
		"x86_64: a 64-bit program that enters the i386 ABI (int 0x80, where sockets go through socketcall) is killed",
		async () => {
			// mov eax, 20 (getpid on i386); int 0x80; ret — run from an executable page.
			const script = `python3 -c '
import ctypes, mmap
page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
page.write(bytes([0xb8, 0x14, 0, 0, 0, 0xcd, 0x80, 0xc3]))
print("i386 getpid:", ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(page)))())
'`;
			const unfiltered = await run("network", script);
			// Outside the filter the i386 call works (this machine kind's kernel has 32-bit emulation): the kill below
			// is the filter's doing, not the kernel's.
			expect(unfiltered.out).toMatch(/^i386 getpid: \d+\n$/);
			const result = await run("read-only", `${script}; echo "exit $?"`);
			expect(result.out).toContain("Bad system call");
			expect(result.out).toContain("exit 159"); // 128 + SIGSYS
		},
	);
});

describe.skipIf(!supported)("ordinary commands under the filter", () => {
	for (const profile of ["read-only", "project-write"] as const) {
		it(`${profile}: git, ls, a pipe, node's child processes (a stream socketpair each) work`, async () => {
			spawnSync("git", ["-C", project, "init", "-q"]);
			const result = await run(
				profile,
				[
					"git status --short >/dev/null && echo git-ok",
					"ls agent.sock",
					"printf 'b\\na\\n' | sort | tr '\\n' ' '; echo",
					`'${NODE}' -e 'console.log(require("node:child_process").execFileSync("sort", { input: "d\\nc\\n" }).toString().trim().split("\\n").join(" "))'`,
				].join(" && "),
			);
			expect(result.out).toBe("git-ok\nagent.sock\na b \nc d\n");
			expect(result.code).toBe(0);
		});
	}

	it("a stream socketpair, which reaches only its other end, works", async () => {
		const result = await run(
			"read-only",
			`python3 -c 'import socket; a, b = socket.socketpair(); a.send(b"pair-ok"); print(b.recv(16).decode())'`,
		);
		expect(result.out).toBe("pair-ok\n");
	});
});

describe.skipIf(!supported)("the probe runs with the filter", () => {
	it("hands bubblewrap the filter on fd 3, and a bubblewrap (or kernel) that refuses it leaves no sandbox", async () => {
		const dir = tempDir();
		const fake = join(dir, "bwrap");
		writeFileSync(
			fake,
			[
				"#!/bin/sh",
				'[ "$1" = --help ] && exit 0',
				`echo "$*" > '${join(dir, "args")}'`,
				`wc -c <&3 > '${join(dir, "filter-bytes")}'`,
				"echo 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument' >&2",
				"exit 1",
			].join("\n"),
		);
		chmodSync(fake, 0o755);
		const found = await probeAt(fake);
		expect(found.usable ? "" : found.why).toContain("prctl(PR_SET_SECCOMP): Invalid argument");
		expect(readFileSync(join(dir, "args"), "utf8")).toContain("--seccomp 3");
		expect(Number(readFileSync(join(dir, "filter-bytes"), "utf8"))).toBe(
			unixSocketFilter(process.arch)?.length,
		);
	});

	it("this machine's bubblewrap takes it", () => {
		expect(probe.closesUnixSockets).toBe(true);
	});
});
