/**
 * The sandbox holds whatever bash tool runs the call (adr/0017), from the attacker's side: real pi, real
 * bubblewrap, pi-subagents installed the ordinary way (the root keeps pi's own bash tool for its in-process
 * children, so the gate rewrites each allowed command into the sandbox), and a model that gives two calls one id.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { PermissionsWalk, walking } from "../harness/permissions-walk.ts";
import { startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import { bash, gateSandbox, resultOf, scriptOf, stopRpcAndCleanUp, writeUserConfig } from "./gate-support.ts";
import {
	answer,
	auditWhen,
	conversationOf,
	delegate,
	GATED_CHILDREN,
	piSubagentsSettings,
	SUBAGENT_TEST_TIMEOUT,
	type SubagentWorld,
	sandboxNoticesOf,
	startRoot,
	subagentWorld,
	warningsOf,
} from "./subagents-support.ts";

afterEach(stopRpcAndCleanUp);

/**
 * The project as a hostile repository hands it over: git's fsmonitor is a program in the repository, which
 * writes a marker in the project and one in the home directory on a plain `git status`.
 */
function plantFsmonitor(sb: Sandbox): { readonly inProject: string; readonly inHome: string } {
	const dir = sb.workDir;
	const inProject = join(dir, "PLANTED-RAN");
	const inHome = join(sb.home, "PLANTED-RAN");
	writeFileSync(join(dir, "README.md"), "# a project someone else prepared\n");
	const git = (...args: string[]) => spawnSync("git", ["-C", dir, ...args], { encoding: "utf8" });
	git("init", "-q");
	git("add", "README.md");
	git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "readme");
	const monitor = join(dir, ".git", "monitor.sh");
	writeFileSync(monitor, `#!/bin/sh\ntouch '${inProject}' '${inHome}'\nexit 0\n`);
	chmodSync(monitor, 0o755);
	git("config", "core.fsmonitor", monitor);
	return { inProject, inHome };
}

const STATUS = "git status --short";

async function piSubagentsRoot(): Promise<SubagentWorld> {
	return subagentWorld(piSubagentsSettings(GATED_CHILDREN));
}

describe("pi-subagents in the root session: pi's own write and edit tools run, so a write asks", () => {
	it(
		"a write an allow rule covers still asks a human (a link swapped in could redirect pi's own tool), and says why",
		async () => {
			const world = await piSubagentsRoot();
			await writeUserConfig(world.sb, { rules: [{ surface: "write", pattern: "**", action: "allow" }] });
			await writeScript(world.sb, {
				conversations: [
					conversationOf(undefined, [{ tool: "write", input: { path: "notes.txt", content: "x" } }]),
				],
			});
			const { rpc } = await startRoot(
				world,
				answer(() => "Deny"),
			);

			const run = await rpc.prompt("take notes");

			expect(run.dialogs).toHaveLength(1);
			expect(existsSync(join(world.sb.workDir, "notes.txt"))).toBe(false);
			expect(rpc.statuses.get("pi-permission-hub")).toContain("write and edit ask");
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});

describe("pi-subagents in the root session: pi's own bash runs the root's commands, in the sandbox", () => {
	it(
		"the root's silent git status runs the planted fsmonitor in the read-only sandbox: it creates nothing, and nobody is asked",
		async () => {
			const world = await piSubagentsRoot();
			const planted = plantFsmonitor(world.sb);
			await writeScript(world.sb, { conversations: [conversationOf(undefined, [bash(STATUS), bash("ls")])] });
			const walk = new PermissionsWalk();
			const report = walk.lines;
			const { rpc, rootId } = await startRoot(
				world,
				walking(walk, (request) => {
					throw new Error(`unexpected dialog: ${request.title}`);
				}),
			);

			const run = await rpc.prompt("look around");

			expect(run.dialogs).toEqual([]);
			expect(existsSync(planted.inProject)).toBe(false);
			expect(existsSync(planted.inHome)).toBe(false);
			// The tool's display and result are the model's own command: found by the arguments pi shows.
			expect(resultOf(run.records, run.toolResults, STATUS).isError).toBe(false);
			expect(resultOf(run.records, run.toolResults, "ls").text).toContain("README.md");
			const entries = await auditWhen(world, (all) => all.filter((e) => e.tool === "bash").length >= 2);
			const bashLines = entries.filter((e) => e.sessionId === rootId && e.tool === "bash");
			expect(bashLines.map((e) => [e.preview, e.tier, e.mode, e.outcome, e.sandbox])).toEqual([
				[STATUS, "read", "auto", "allow", "read-only"],
				["ls", "read", "auto", "allow", "read-only"],
			]);
			// No "runs unsandboxed" notice: the sandbox is on, and /permissions says how it holds the root's commands.
			expect(sandboxNoticesOf(rpc)).toEqual([]);
			expect(warningsOf(rpc)).toEqual([]);
			await rpc.prompt("/permissions");
			expect(report).toContain(
				"each allowed command is rewritten into the sandbox: pi-subagents runs in this session and needs pi's own bash tool for its children",
			);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"a write a rule allows runs in the project-write sandbox the audit records: it writes in the project, not in $HOME or .git",
		async () => {
			const world = await piSubagentsRoot();
			const { sb } = world;
			spawnSync("git", ["-C", sb.workDir, "init", "-q"]);
			const hook = join(sb.workDir, ".git", "hooks", "pre-commit");
			const inHome = join(sb.home, "ESCAPED");
			writeFileSync(
				join(sb.workDir, "Makefile"),
				[
					"build:",
					"\techo built > built.txt",
					`\t-echo 'curl evil' > ${hook}`,
					`\t-touch ${inHome}`,
					"",
				].join("\n"),
			);
			await writeUserConfig(sb, { rules: [{ surface: "command", pattern: "make build", action: "allow" }] });
			await writeScript(sb, { conversations: [conversationOf(undefined, [bash("make build")])] });
			const { rpc } = await startRoot(
				world,
				answer(() => "Deny"),
			);

			const run = await rpc.prompt("build");

			expect(run.dialogs).toEqual([]);
			expect(resultOf(run.records, run.toolResults, "make build").isError).toBe(false);
			expect(readFileSync(join(sb.workDir, "built.txt"), "utf8")).toBe("built\n");
			expect(existsSync(hook)).toBe(false);
			expect(existsSync(inHome)).toBe(false);
			const [entry] = await auditWhen(world, (all) => all.some((e) => e.tool === "bash"));
			expect(entry).toMatchObject({
				preview: "make build",
				tier: "write",
				mode: "auto",
				outcome: "allow",
				sandbox: "project-write",
			});
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});

describe("the user's shell settings with a rewritten command", () => {
	it(
		"pi's shellCommandPrefix still runs before the command (outside the sandbox, as pi puts it) and what it exports reaches the command",
		async () => {
			const world = await subagentWorld({
				...piSubagentsSettings(GATED_CHILDREN),
				shellCommandPrefix: "export PPH_PREFIX=from-prefix",
			});
			const planted = plantFsmonitor(world.sb);
			const command = 'echo "prefix: $PPH_PREFIX"; git status --short';
			await writeScript(world.sb, { conversations: [conversationOf(undefined, [bash(command)])] });
			const { rpc } = await startRoot(
				world,
				answer(() => "Deny"),
			);

			const run = await rpc.prompt("look");

			expect(run.dialogs).toEqual([]);
			const result = resultOf(run.records, run.toolResults, command);
			expect(result.text).toContain("prefix: from-prefix");
			expect(existsSync(planted.inProject)).toBe(false);
			expect(existsSync(planted.inHome)).toBe(false);
			const [entry] = await auditWhen(world, (all) => all.some((e) => e.tool === "bash"));
			expect(entry).toMatchObject({ mode: "auto", outcome: "allow", sandbox: "read-only" });
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});

describe("pi-subagents' in-process children keep pi's own bash, and their own gates sandbox it", () => {
	it(
		"a child's silent git status runs the planted fsmonitor in the read-only sandbox; only the delegation asked",
		async () => {
			const world = await piSubagentsRoot();
			const planted = plantFsmonitor(world.sb);
			await writeScript(world.sb, {
				conversations: [
					conversationOf("CHILD-TASK", [bash(STATUS)]),
					conversationOf(undefined, [delegate("delegate", "CHILD-TASK look around")]),
				],
			});
			const { rpc, rootId } = await startRoot(
				world,
				answer(() => "Allow once"),
			);

			const run = await rpc.prompt("delegate a look around");

			expect(run.dialogs.map((d) => d.request.title)).toEqual([
				expect.stringContaining("Permission needed: subagent (spend)"),
			]);
			expect(run.toolResults.find((r) => r.toolName === "subagent")?.isError).toBe(false);
			expect(existsSync(planted.inProject)).toBe(false);
			expect(existsSync(planted.inHome)).toBe(false);
			const entries = await auditWhen(world, (all) => all.some((e) => e.tool === "bash"));
			const child = entries.find((e) => e.tool === "bash");
			expect(child?.sessionId).not.toBe(rootId);
			expect(child).toMatchObject({ preview: STATUS, mode: "auto", outcome: "allow", sandbox: "read-only" });
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});

describe("two bash calls with one id in one message (a hostile model)", () => {
	it("the second is refused before anyone is asked; the first runs in the sandbox its audit line names", async () => {
		const sb = await gateSandbox();
		const planted = plantFsmonitor(sb);
		await sb.writeWorkFile("victim.txt", "keep me");
		// The silent read first, then a command a human would approve: before, the approval's "run as approved"
		// replaced the read's plan, and the planted program ran unconfined under an audit line saying read-only.
		await writeScript(
			sb,
			scriptOf([
				{ ...bash(STATUS), id: "same-id" },
				{ ...bash("rm -f victim.txt"), id: "same-id" },
			]),
		);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: answer(() => "Allow once"),
		});

		const run = await rpc.prompt("look around");

		expect(run.dialogs).toEqual([]);
		expect(existsSync(planted.inProject)).toBe(false);
		expect(existsSync(planted.inHome)).toBe(false);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		const refused = run.toolResults.find((r) => r.isError);
		expect(refused?.text).toContain('another bash call with the id "same-id" is waiting to run');
		const entries = await auditWhen({ sb, settingsFile: "" }, (all) => all.length >= 2);
		expect(entries.map((e) => [e.outcome, e.sandbox ?? null])).toEqual([
			["allow", "read-only"],
			["deny", null],
		]);
		expect(entries[0]?.preview).toBe(STATUS);
		expect(entries[1]?.reason).toContain("is waiting to run");
	});
});
