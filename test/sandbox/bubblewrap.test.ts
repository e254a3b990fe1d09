/**
 * The sandbox profiles run for real: real bubblewrap (installed by .ci/run), real files, a real git repository
 * with a planted fsmonitor, a real TCP listener for the network checks.
 */
import { spawn, spawnSync } from "node:child_process";
import {
	chmodSync,
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	type BubblewrapProbe,
	probeAt,
	probeBubblewrap,
	SANDBOX_INSTALL_HINT,
	type SandboxProfile,
	sandboxedCommand,
} from "../../src/sandbox/bubblewrap.ts";
import { tempDir } from "../policy/fixtures.ts";
import { runShell } from "./shell-run.ts";

let probe: BubblewrapProbe & { usable: true };
let server: Server;
let port = 0;

beforeAll(async () => {
	const found = await probeBubblewrap();
	if (!found.usable) throw new Error(`these tests need bubblewrap (.ci/run installs it): ${found.why}`);
	probe = found;
	server = createServer((socket) => socket.end("hello from the host\n"));
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	port = typeof address === "object" && address !== null ? address.port : 0;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

/**
 * Run `script` with bash inside `profile`, started in `cwd` (default: the project). Asynchronously: the host's
 * TCP listener lives in this very process and must be able to answer.
 */
async function run(
	profile: SandboxProfile,
	project: string,
	script: string,
	cwd = project,
	keepReadOnly: readonly string[] = [],
) {
	return runShell(sandboxedCommand(script, profile, { project, cwd, keepReadOnly }, probe));
}

/** A project with a git repository in it, as a user opens it. */
function project(): string {
	const dir = tempDir();
	writeFileSync(join(dir, "README.md"), "# demo\n");
	const git = (...args: string[]) =>
		spawnSync("git", ["-C", dir, ...args], {
			encoding: "utf8",
			env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
		});
	git("init", "-q");
	git("config", "user.email", "t@example.com");
	git("config", "user.name", "t");
	git("add", "README.md");
	git("commit", "-qm", "init");
	mkdirSync(join(dir, ".pi"), { recursive: true });
	return dir;
}

/** A place outside both /tmp and the project that the sandbox must not write: this user's home. */
function outsideTarget(): string {
	return join(homedir(), `.pph-sandbox-outside-${process.pid}-${Math.random().toString(36).slice(2)}`);
}

describe("read-only: what a silent read runs in", () => {
	it("reads the project and runs git; writes nothing anywhere", async () => {
		const dir = project();
		const outside = outsideTarget();
		const result = await run(
			"read-only",
			dir,
			`cat README.md && git status --short && echo x > README.md; echo x > new-file; echo x > ${outside}; echo x > .git/hooks/pre-commit; true`,
		);
		try {
			expect(result.out).toContain("# demo");
			expect(result.err).toContain("Read-only file system");
			expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("# demo\n");
			expect(existsSync(join(dir, "new-file"))).toBe(false);
			expect(existsSync(outside)).toBe(false);
			expect(existsSync(join(dir, ".git", "hooks", "pre-commit"))).toBe(false);
		} finally {
			rmSync(outside, { force: true });
		}
	});

	it("a planted fsmonitor that git runs on `git status` creates nothing, in the project or elsewhere", async () => {
		const dir = project();
		const outside = outsideTarget();
		const planted = join(dir, "monitor.sh");
		writeFileSync(planted, `#!/bin/sh\ntouch ${join(dir, "PWNED")} ${outside}\n`);
		chmodSync(planted, 0o755);
		spawnSync("git", ["-C", dir, "config", "core.fsmonitor", planted]);
		const result = await run("read-only", dir, "git status --short; echo status-done");
		try {
			expect(result.out).toContain("status-done");
			expect(existsSync(join(dir, "PWNED"))).toBe(false);
			expect(existsSync(outside)).toBe(false);
		} finally {
			rmSync(outside, { force: true });
		}
	});

	it("has a private, writable /tmp that leaves nothing on the host", async () => {
		const dir = project();
		const name = `/tmp/pph-sandbox-private-${process.pid}`;
		const result = await run("read-only", dir, `echo inside > ${name} && cat ${name}`);
		expect(result.code).toBe(0);
		expect(result.out).toBe("inside\n");
		expect(existsSync(name)).toBe(false);
	});

	it("reaches no network, not even a listener on the host's loopback", async () => {
		const result = await run("read-only", project(), `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`);
		expect(result.code).not.toBe(0);
		expect(result.out).not.toContain("hello from the host");
	});
});

describe("project-write: what a write approved without a human runs in", () => {
	it("writes inside the project, and nowhere else", async () => {
		const dir = project();
		const outside = outsideTarget();
		const result = await run(
			"project-write",
			dir,
			`echo changed > README.md && mkdir -p src && echo y > src/a.ts; echo x > ${outside}; true`,
		);
		try {
			expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("changed\n");
			expect(readFileSync(join(dir, "src", "a.ts"), "utf8")).toBe("y\n");
			expect(existsSync(outside)).toBe(false);
			expect(result.err).toContain("Read-only file system");
		} finally {
			rmSync(outside, { force: true });
		}
	});

	it("cannot touch what git and pi run later: hooks, git config, .pi — nor rename .git away to get round it", async () => {
		const dir = project();
		const config = readFileSync(join(dir, ".git", "config"), "utf8");
		await run(
			"project-write",
			dir,
			[
				"echo evil > .git/hooks/pre-commit",
				"git config core.fsmonitor ./evil.sh",
				"echo '{}' > .pi/settings.json",
				"mv .git .git-moved && mkdir -p .git/hooks && echo evil > .git/hooks/post-checkout",
				"true",
			].join("; "),
		);
		expect(existsSync(join(dir, ".git", "hooks", "pre-commit"))).toBe(false);
		expect(readFileSync(join(dir, ".git", "config"), "utf8")).toBe(config);
		expect(existsSync(join(dir, ".pi", "settings.json"))).toBe(false);
		expect(existsSync(join(dir, ".git-moved"))).toBe(false);
		expect(existsSync(join(dir, ".git", "hooks", "post-checkout"))).toBe(false);
	});

	it("reaches no network", async () => {
		const result = await run("project-write", project(), `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`);
		expect(result.code).not.toBe(0);
		expect(result.out).not.toContain("hello from the host");
	});

	it("leaves no file in .git writable: git follows commondir and config.worktree to other configurations", async () => {
		const dir = project();
		mkdirSync(join(dir, "evil"));
		writeFileSync(join(dir, "evil", "config"), "[core]\n\tfsmonitor = touch PWNED\n");
		await run(
			"project-write",
			dir,
			"echo ../evil > .git/commondir; echo x > .git/config.worktree; echo x > .git/description; true",
		);
		expect(existsSync(join(dir, ".git", "commondir"))).toBe(false);
		expect(existsSync(join(dir, ".git", "config.worktree"))).toBe(false);
		expect(readFileSync(join(dir, ".git", "description"), "utf8")).not.toBe("x\n");
	});

	it("a .git or .pi that does not exist yet cannot be created; an empty, read-only placeholder is all that is left", async () => {
		const dir = tempDir();
		const result = await run("project-write", dir, "git init -q; mkdir -p .pi/x; echo ok > file; cat file");
		expect(result.out).toBe("ok\n");
		expect(readdirSync(join(dir, ".git"))).toEqual([]);
		expect(readdirSync(join(dir, ".pi"))).toEqual([]);
	});

	it("a .git that is a file (a worktree or a submodule checkout) cannot be pointed elsewhere", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, ".git"), "gitdir: /nonexistent\n");
		await run("project-write", dir, "echo 'gitdir: ./evil-git' > .git; true");
		expect(readFileSync(join(dir, ".git"), "utf8")).toBe("gitdir: /nonexistent\n");
	});

	it("a protected path that is a symbolic link leaves the command no writes at all, not an unprotected link", async () => {
		const dir = project();
		rmSync(join(dir, ".pi"), { recursive: true });
		mkdirSync(join(dir, "docs"));
		symlinkSync("docs", join(dir, ".pi"));
		const result = await run(
			"project-write",
			dir,
			"rm .pi && mkdir .pi && echo '{}' > .pi/settings.json; echo x > README.md; true",
		);
		expect(existsSync(join(dir, ".pi", "settings.json"))).toBe(false);
		expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("# demo\n");
		expect(result.err).toContain("Read-only file system");
	});

	it("a project that holds the home directory or pi's agent dir gets no writes", async () => {
		const dir = project();
		const home = join(dir, "home");
		mkdirSync(home);
		await run("project-write", dir, "echo x > home/.bashrc; echo x > README.md; true", dir, [home]);
		expect(existsSync(join(home, ".bashrc"))).toBe(false);
		expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("# demo\n");
	});
});

describe("network: an approved network-egress command", () => {
	it("reaches the network, and still writes only in the project", async () => {
		const dir = project();
		const outside = outsideTarget();
		const result = await run(
			"network",
			dir,
			`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3; echo x > ${outside}; true`,
		);
		try {
			expect(result.out).toContain("hello from the host");
			expect(existsSync(outside)).toBe(false);
		} finally {
			rmSync(outside, { force: true });
		}
	});
});

describe("descriptors the gate's process holds", () => {
	it.each(["read-only", "project-write", "network"] as const)(
		"%s: a descriptor pi inherited open (a log, an inbox outside the sandbox) does not reach the command",
		async (profile) => {
			const dir = project();
			const outside = outsideTarget();
			writeFileSync(outside, "");
			const held = openSync(outside, "a");
			try {
				// pi's bash passes every descriptor its own process holds without close-on-exec to the shell it starts.
				const line = sandboxedCommand(
					"echo forged >&9; echo forged > /proc/self/fd/9; echo done",
					profile,
					{ project: dir, cwd: dir, keepReadOnly: [] },
					probe,
				);
				const child = spawn("/bin/bash", ["-c", line], {
					stdio: ["ignore", "pipe", "pipe", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", held],
				});
				let out = "";
				child.stdout?.on("data", (chunk) => {
					out += chunk;
				});
				await new Promise((resolve) => child.on("close", resolve));
				expect(out).toBe("done\n");
				expect(readFileSync(outside, "utf8")).toBe("");
			} finally {
				closeSync(held);
				rmSync(outside, { force: true });
			}
		},
	);
});

describe("the command travels whole", () => {
	it("quotes, dollars and newlines in the script reach bash inside unchanged", async () => {
		const dir = project();
		const script = `x='it'"'"'s'; printf '%s|%s\\n' "$x" "$(printf 'a\\nb\\n' | wc -l)"`;
		expect((await run("read-only", dir, script)).out).toBe("it's|2\n");
	});
});

describe("when no sandbox can run", () => {
	it("a missing bubblewrap is reported as such, with what to install", async () => {
		expect(await probeAt(null)).toEqual({
			usable: false,
			why: "bubblewrap (bwrap) is not installed",
			fix: SANDBOX_INSTALL_HINT,
		});
	});

	it("a binary that is not bubblewrap is unusable, with its error", async () => {
		const fake = join(tempDir(), "bwrap");
		writeFileSync(fake, "#!/bin/sh\necho 'no sandbox for you' >&2\nexit 1\n");
		chmodSync(fake, 0o755);
		const found = await probeAt(fake);
		expect(found.usable).toBe(false);
		expect(found.usable ? "" : found.why).toContain("no sandbox for you");
	});
});
