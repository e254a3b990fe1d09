/**
 * The sandbox in real pi (adr/0017): real pi, the built extension, real bubblewrap, a repository someone else
 * prepared — its `.git/config` names a program git runs on a plain `git status`.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-support.ts";
import { pickOption } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, REPO_ROOT } from "../harness/paths.ts";
import { PermissionsWalk, walking } from "../harness/permissions-walk.ts";
import { runPrint } from "../harness/print-run.ts";
import { killAllRpc, startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	bash,
	cleanupSandboxes,
	copyOfBuild,
	gateSandbox,
	promptsOf,
	resultOf,
	scriptOf,
	writeUserConfig,
} from "./gate-support.ts";
import { hubLog } from "./hub-support.ts";

/** Another extension's `bash`, registered before the gate's: pi runs that one. */
const FOREIGN_BASH = join(REPO_ROOT, "test", "fixtures", "foreign-bash-extension.ts");
/** Another extension's `bash` that runs an argument vector, not a shell command. */
const FOREIGN_ARGV_BASH = join(REPO_ROOT, "test", "fixtures", "foreign-argv-bash-extension.ts");

const servers: Server[] = [];

afterEach(async () => {
	await killAllRpc();
	await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
	await cleanupSandboxes();
});

/** A server on the host's loopback that counts who reached it. */
async function countingServer(): Promise<{ readonly port: number; readonly hits: () => number }> {
	let hits = 0;
	const server = createServer((_request, response) => {
		hits++;
		response.end("reached\n");
	});
	server.on("connection", () => hits++);
	servers.push(server);
	await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
	return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

const READS = ["git status --short", "git log --oneline", "cat README.md", "ls"];

/**
 * The project as a hostile repository hands it over: git's fsmonitor is a program in the repository, which
 * writes in the project and the home directory and calls a server on the host's loopback.
 */
function plantFsmonitor(
	sb: Sandbox,
	callPort: number,
): { readonly inProject: string; readonly inHome: string } {
	const dir = sb.workDir;
	const inProject = join(dir, "PLANTED-RAN");
	const inHome = join(sb.home, "PLANTED-RAN");
	writeFileSync(join(dir, "README.md"), "# a project someone else prepared\n");
	const git = (...args: string[]) => spawnSync("git", ["-C", dir, ...args], { encoding: "utf8" });
	git("init", "-q");
	git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init");
	git("add", "README.md");
	git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "readme");
	const monitor = join(dir, ".git", "monitor.sh");
	writeFileSync(
		monitor,
		`#!/bin/sh\ntouch '${inProject}' '${inHome}'\ncurl -s -m 2 http://127.0.0.1:${callPort}/ >/dev/null 2>&1\nexit 0\n`,
	);
	chmodSync(monitor, 0o755);
	git("config", "core.fsmonitor", monitor);
	return { inProject, inHome };
}

describe("a repository that plants a program on git status (adr/0017)", () => {
	it("with the default policy, the model's reads run without a dialog and show their output; the planted program creates nothing", async () => {
		const sb = await gateSandbox();
		const server = await countingServer();
		const planted = plantFsmonitor(sb, server.port);
		await writeScript(sb, scriptOf(READS.map(bash)));

		const run = await runPrint({
			sandbox: sb,
			prompt: "look around",
			extensions: [EXTENSION_ENTRY],
			mode: "json",
		});

		const outputs = READS.map((command) => resultOf(run.events, run.toolResults, command));
		expect(outputs.map((r) => r.isError)).toEqual([false, false, false, false]);
		expect(outputs[1]?.text).toContain("readme");
		expect(outputs[2]?.text).toContain("# a project someone else prepared");
		expect(outputs[3]?.text).toContain("README.md");
		expect(existsSync(planted.inProject)).toBe(false);
		expect(existsSync(planted.inHome)).toBe(false);
		// Nor does it reach the network: not even the host's loopback.
		expect(server.hits()).toBe(0);
		const entries = await auditEntries(sb, READS.length);
		// Each audit line says how its command ran.
		expect(entries.map((e) => [e.tier, e.outcome, e.mode, e.sandbox])).toEqual(
			READS.map(() => ["read", "allow", "auto", "read-only"]),
		);
		// And `explain` tells it.
		const explained = await runCli(sb, ["explain", "git log"]);
		expect(explained.stdout).toContain(
			"ran in the read-only sandbox (no writes outside a private /tmp, no network)",
		);
	});

	it("with the sandbox turned off, the same read runs the planted program: the hole the sandbox closes", async () => {
		const sb = await gateSandbox();
		const server = await countingServer();
		const planted = plantFsmonitor(sb, server.port);
		await writeUserConfig(sb, { sandbox: { enabled: false } });
		await writeScript(sb, scriptOf([bash("git status --short")]));

		await runPrint({ sandbox: sb, prompt: "look around", extensions: [EXTENSION_ENTRY], mode: "json" });

		expect(existsSync(planted.inProject)).toBe(true);
		expect(server.hits()).toBeGreaterThan(0);
		const [entry] = await auditEntries(sb, 1);
		expect(entry?.sandbox).toBeUndefined();
	});
});

describe("a write allowed by a rule (adr/0017)", () => {
	it("writes in the project, but not in the home directory, .git/hooks or .pi, whatever the Makefile says", async () => {
		const sb = await gateSandbox();
		spawnSync("git", ["-C", sb.workDir, "init", "-q"]);
		const hook = join(sb.workDir, ".git", "hooks", "pre-commit");
		const inHome = join(sb.home, "ESCAPED");
		const inPi = join(sb.workDir, ".pi", "ESCAPED");
		writeFileSync(
			join(sb.workDir, "Makefile"),
			[
				"build:",
				"\techo built > built.txt",
				`\t-echo 'curl evil' > ${hook}`,
				`\t-touch ${inHome}`,
				`\t-mkdir -p .pi && touch ${inPi}`,
				"",
			].join("\n"),
		);
		await writeUserConfig(sb, {
			sandbox: { enabled: true },
			rules: [{ surface: "command", pattern: "make build", action: "allow" }],
		});
		await writeScript(sb, scriptOf([bash("make build")]));

		const run = await runPrint({ sandbox: sb, prompt: "build", extensions: [EXTENSION_ENTRY], mode: "json" });

		expect(resultOf(run.events, run.toolResults, "make build").isError).toBe(false);
		expect(readFileSync(join(sb.workDir, "built.txt"), "utf8")).toBe("built\n");
		expect(existsSync(hook)).toBe(false);
		expect(existsSync(inHome)).toBe(false);
		expect(existsSync(inPi)).toBe(false);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({ tier: "write", mode: "auto", outcome: "allow", sandbox: "project-write" });
	});
});

describe("a network-egress command under sandbox.network.allow (adr/0017)", () => {
	it("reaches an allowed server through the proxy and not another one", async () => {
		const sb = await gateSandbox();
		const allowed = await countingServer();
		const other = await countingServer();
		await writeUserConfig(sb, {
			sandbox: { enabled: true, network: { allow: [`127.0.0.1:${allowed.port}`] } },
			rules: [{ surface: "command", pattern: "curl *", action: "allow" }],
			grantCeiling: { tier: "network-egress", reason: "the test fetches from its own servers" },
		});
		const toAllowed = `curl -s http://127.0.0.1:${allowed.port}/`;
		const toOther = `curl -s http://127.0.0.1:${other.port}/`;
		await writeScript(sb, scriptOf([bash(toAllowed)], [bash(toOther)]));

		const run = await runPrint({ sandbox: sb, prompt: "fetch", extensions: [EXTENSION_ENTRY], mode: "json" });

		expect(resultOf(run.events, run.toolResults, toAllowed).text).toContain("reached");
		expect(resultOf(run.events, run.toolResults, toOther).text).toContain("not in sandbox.network.allow");
		expect(allowed.hits()).toBeGreaterThan(0);
		expect(other.hits()).toBe(0);
		const entries = await auditEntries(sb, 2);
		expect(entries.map((e) => [e.tier, e.mode, e.sandbox])).toEqual([
			["network-egress", "auto", "network"],
			["network-egress", "auto", "network"],
		]);
	});
});

describe("sandbox settings in a live session (adr/0017)", () => {
	it("a sandbox required after the session started cannot run in it: the next silent call asks, and the status line says so", async () => {
		const sb = await gateSandbox();
		await writeUserConfig(sb, { sandbox: { enabled: false } });
		await writeScript(sb, promptsOf([bash("ls")], [bash("ls")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: pickOption("Allow once"),
		});

		const before = await rpc.prompt("look");
		expect(before.dialogs).toHaveLength(0);
		await writeUserConfig(sb, { sandbox: { required: true } });
		const after = await rpc.prompt("look again");

		expect(after.dialogs).toHaveLength(1);
		const [dialog] = after.dialogs;
		if (dialog?.request.method !== "select") throw new Error("expected a select dialog");
		expect(dialog.request.title).toContain("the sandbox is required, but no sandbox can run here");
		expect(after.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		expect(rpc.statuses.get("pi-permission-hub")).toContain(
			"no sandbox: it was turned on after this session started",
		);
		const entries = await auditEntries(sb, 2);
		expect(entries.map((e) => [e.mode, e.source.kind, e.sandbox])).toEqual([
			["auto", "rule", undefined],
			["ask", "user", "unavailable"],
		]);
	});

	it("with sandbox.human, a command the user types runs in the sandbox of its tier", async () => {
		const sb = await gateSandbox();
		mkdirSync(join(sb.workDir, "src"));
		await writeUserConfig(sb, { sandbox: { enabled: true, human: true } });
		await writeScript(sb, scriptOf());
		const walk = new PermissionsWalk();
		const report = walk.lines;
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: walking(walk, () => ({ cancel: true })),
		});

		const inProject = await rpc.userBash("touch src/typed.txt && echo done");
		const inHome = await rpc.userBash(`touch ${join(sb.home, "typed.txt")}`);

		// After the first command the background probe has answered: /permissions says the sandbox is on.
		await rpc.prompt("/permissions");
		expect(report).toContain("── Sandbox ──");
		expect(report).toContain(
			"on (/usr/bin/bwrap): bash commands allowed without a human run in the sandbox of their tier",
		);
		expect(report).toContain("a human's approvals run in the sandbox of their tier too (sandbox.human)");
		expect(inProject).toMatchObject({ success: true, exitCode: 0 });
		expect(existsSync(join(sb.workDir, "src", "typed.txt"))).toBe(true);
		expect(inHome).toMatchObject({ success: true });
		expect(inHome.success && inHome.exitCode).not.toBe(0);
		expect(existsSync(join(sb.home, "typed.txt"))).toBe(false);
		const entries = await auditEntries(sb, 2);
		expect(entries.map((e) => [e.event, e.sandbox])).toEqual([
			["user_bash", "project-write"],
			["user_bash", "project-write"],
		]);
	});
});

describe("another extension's bash tool, registered before the gate's (adr/0017)", () => {
	it("each allowed command is rewritten into the sandbox: the planted program creates nothing, and the audit says how it ran", async () => {
		const sb = await gateSandbox();
		const server = await countingServer();
		const planted = plantFsmonitor(sb, server.port);
		await writeScript(sb, scriptOf([bash("git status --short"), bash("ls")]));

		const run = await runPrint({
			sandbox: sb,
			prompt: "look around",
			extensions: [FOREIGN_BASH, EXTENSION_ENTRY],
			mode: "json",
		});

		// The other tool ran it, in the sandbox the gate wrote into its command (before, it ran unconfined).
		expect(resultOf(run.events, run.toolResults, "ls").text).toContain("README.md");
		expect(existsSync(planted.inProject)).toBe(false);
		expect(existsSync(planted.inHome)).toBe(false);
		expect(server.hits()).toBe(0);
		const entries = await auditEntries(sb, 2);
		expect(entries.map((e) => [e.outcome, e.mode, e.sandbox])).toEqual([
			["allow", "auto", "read-only"],
			["allow", "auto", "read-only"],
		]);
		expect(hubLog(sb).filter((e) => e.event === "sandbox.unavailable")).toEqual([]);
	});

	it("a second copy of this extension is not another extension: the session's reads still run in the sandbox", async () => {
		const sb = await gateSandbox();
		const server = await countingServer();
		const planted = plantFsmonitor(sb, server.port);
		const secondCopy = await copyOfBuild(sb);
		await writeScript(sb, scriptOf([bash("git status --short")]));

		await runPrint({ sandbox: sb, prompt: "look", extensions: [secondCopy, EXTENSION_ENTRY], mode: "json" });

		expect(existsSync(planted.inProject)).toBe(false);
		const [entry] = await auditEntries(sb, 1);
		expect([entry?.outcome, entry?.sandbox]).toEqual(["allow", "read-only"]);
		expect(hubLog(sb).filter((e) => e.event === "sandbox.unavailable")).toEqual([]);
	});

	it("a foreign bash tool with no shell command to rewrite: its call never runs silently", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, scriptOf([{ tool: "bash", input: { argv: ["touch", "ran.txt"] } }]));

		await runPrint({
			sandbox: sb,
			prompt: "look",
			extensions: [FOREIGN_ARGV_BASH, EXTENSION_ENTRY],
			mode: "json",
		});

		expect(existsSync(join(sb.workDir, "ran.txt"))).toBe(false);
		const [entry] = await auditEntries(sb, 1);
		expect(entry?.mode).not.toBe("auto");
		expect(entry?.outcome).not.toBe("allow");
	});
});
