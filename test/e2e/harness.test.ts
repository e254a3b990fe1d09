/**
 * Self-test of the real-pi harness: real pi processes, the scripted faux model, a stand-in gate fixture.
 * If these fail, every other e2e test's verdict is meaningless.
 */
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { allowAll, denyAll, never, pickOption, scripted } from "../harness/dialog-policy.ts";
import { type FauxScript, writeScript } from "../harness/faux-script.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import { livePiProcesses } from "../harness/pi-process.ts";
import { runPrint } from "../harness/print-run.ts";
import { killAllRpc, startRpc } from "../harness/rpc-session.ts";
import { createSandbox, type Sandbox } from "../harness/sandbox.ts";

const ASK_RM_FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "ask-rm-extension.ts");

const sandboxes: Sandbox[] = [];

async function sandbox(): Promise<Sandbox> {
	const created = await createSandbox();
	sandboxes.push(created);
	return created;
}

afterEach(async () => {
	await killAllRpc();
	await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

function bashThenEcho(...commands: string[]): FauxScript {
	return {
		conversations: [
			{
				turns: [{ calls: commands.map((command) => ({ tool: "bash", input: { command } })) }, { echo: true }],
			},
		],
	};
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describe("print mode", () => {
	it("runs the scripted bash call for real and echoes the results", async () => {
		const sb = await sandbox();
		await writeScript(sb, bashThenEcho("echo hello > made-by-pi.txt", "echo second"));

		const run = await runPrint({ sandbox: sb, prompt: "make a file", extensions: [] });

		expect(run.code).toBe(0);
		expect(readFileSync(sb.workPath("made-by-pi.txt"), "utf8")).toBe("hello\n");
		expect(run.stdout).toContain("RESULTS:");
		// Both calls of the parallel batch are echoed, in order.
		expect(run.stdout).toContain('[{"tool":"bash","text":"(no output)","isError":false},');
		expect(run.stdout).toContain('"text":"second\\n"');
	});

	it("the fixture gate blocks rm when there is no UI", async () => {
		const sb = await sandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await writeScript(sb, bashThenEcho("rm -f victim.txt"));

		const run = await runPrint({ sandbox: sb, prompt: "delete it", extensions: [ASK_RM_FIXTURE] });

		expect(run.code).toBe(0);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(run.stdout).toContain("fixture: no UI");
	});

	it("json mode returns the parsed event stream", async () => {
		const sb = await sandbox();
		await writeScript(sb, bashThenEcho("echo json-mode"));

		const run = await runPrint({ sandbox: sb, prompt: "go", extensions: [], mode: "json" });

		expect(run.nonJsonLines).toEqual([]);
		expect(run.events.at(-1)?.type).toBe("agent_settled");
		expect(run.toolResults).toMatchObject([{ toolName: "bash", isError: false, text: "json-mode\n" }]);
		expect(run.finalText).toBe('RESULTS: [{"tool":"bash","text":"json-mode\\n","isError":false}]');
	});

	it("an invalid script surfaces as a FAUX SCRIPT ERROR answer", async () => {
		const sb = await sandbox();
		await writeFile(sb.fauxScriptPath, '{"conversations":[{"turns":[{"calls":[]}]}]}');

		const run = await runPrint({ sandbox: sb, prompt: "go", extensions: [] });

		expect(run.stdout).toMatch(/^FAUX SCRIPT ERROR: .*faux-script\.json is invalid/);
	});

	it("the outer environment does not leak into pi or its tools", async () => {
		const sb = await sandbox();
		await writeScript(sb, bashThenEcho("env > seen-env.txt"));
		const outer = { PI_SUBAGENT_PARENT_SESSION: "outer", PI_LEAK_PROBE: "outer", GITHUB_ACTIONS: "true" };
		Object.assign(process.env, outer);
		try {
			await runPrint({ sandbox: sb, prompt: "dump env", extensions: [] });
		} finally {
			for (const name of Object.keys(outer)) delete process.env[name];
		}

		const seen = readFileSync(sb.workPath("seen-env.txt"), "utf8");
		expect(seen).toContain(`PI_CODING_AGENT_DIR=${sb.agentDir}`);
		expect(seen).toContain(`HOME=${sb.home}`);
		expect(seen).not.toContain("PI_SUBAGENT_PARENT_SESSION");
		expect(seen).not.toContain("PI_LEAK_PROBE");
		expect(seen).not.toContain("GITHUB_ACTIONS");
	});

	it("the print watchdog kills a hung run and reports the stream tails", async () => {
		const sb = await sandbox();
		await writeScript(sb, bashThenEcho("echo $$ > tool.pid; exec sleep 30"));

		await expect(runPrint({ sandbox: sb, prompt: "hang", extensions: [], timeoutMs: 2_000 })).rejects.toThrow(
			/timed out after 2000 ms \(process tree killed\)[\s\S]*stderr tail/,
		);
		await expect.poll(() => livePiProcesses().length, { timeout: 3_000 }).toBe(0);
		// The tool's command runs in a process group of its own; the watchdog must stop it too.
		const toolPid = Number(readFileSync(sb.workPath("tool.pid"), "utf8"));
		await expect.poll(() => isAlive(toolPid), { timeout: 3_000 }).toBe(false);
	});
});

describe("RPC mode", () => {
	it("Allow lets rm run, and the fixture's status arrives", async () => {
		const sb = await sandbox();
		await sb.writeWorkFile("victim.txt", "doomed");
		await writeScript(sb, bashThenEcho("rm -f victim.txt"));
		const rpc = await startRpc({ sandbox: sb, extensions: [ASK_RM_FIXTURE], dialog: allowAll });

		const run = await rpc.prompt("delete it");

		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		expect(run.dialogs.map((d) => [d.request.method, d.request.title, d.answer])).toEqual([
			["select", "fixture: allow?", { select: "Allow" }],
		]);
		expect(run.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		expect(run.finalText).toMatch(/^RESULTS: /);
		expect(rpc.statuses.get("fixture")).toBe("ready");
		expect(rpc.protocolErrors).toEqual([]);
		expect(await rpc.close()).toEqual({ code: 0, signal: null });
	});

	it("Deny keeps the file and the model sees the block reason", async () => {
		const sb = await sandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await writeScript(sb, bashThenEcho("rm -f victim.txt"));
		const rpc = await startRpc({ sandbox: sb, extensions: [ASK_RM_FIXTURE], dialog: denyAll });

		const run = await rpc.prompt("delete it");

		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(run.dialogs[0]?.answer).toEqual({ select: "Deny" });
		expect(run.toolResults).toMatchObject([{ toolName: "bash", isError: true, text: "fixture: denied" }]);
		expect(run.finalText).toContain("fixture: denied");
	});

	it("cancel keeps the file; policies can change between prompts", async () => {
		const sb = await sandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await writeScript(sb, {
			conversations: [
				{
					turns: [
						{ calls: [{ tool: "bash", input: { command: "rm -f victim.txt" } }] },
						{ echo: true },
						{ calls: [{ tool: "bash", input: { command: "rm -f victim.txt" } }] },
						{ echo: true },
					],
				},
			],
		});
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [ASK_RM_FIXTURE],
			dialog: scripted([{ cancel: true }]),
		});

		const cancelled = await rpc.prompt("delete it");
		expect(cancelled.dialogs[0]?.answer).toEqual({ cancel: true });
		expect(cancelled.toolResults).toMatchObject([{ isError: true, text: "fixture: denied" }]);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);

		rpc.setDialogPolicy(pickOption("Allow"));
		const allowed = await rpc.prompt("now delete it");
		expect(allowed.dialogs[0]?.answer).toEqual({ select: "Allow" });
		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
	});

	it("conversations are picked by the first user message, turns by the assistant count", async () => {
		const sb = await sandbox();
		await writeScript(sb, {
			conversations: [
				{ match: "alpha", turns: [{ text: "ALPHA REPLY" }] },
				{ match: "beta", turns: [{ text: "BETA REPLY" }] },
				{ turns: [{ text: "DEFAULT REPLY" }] },
			],
		});
		const rpc = await startRpc({ sandbox: sb, extensions: [], dialog: never });

		expect((await rpc.prompt("alpha task")).finalText).toBe("ALPHA REPLY");
		// Same conversation: its first message is still "alpha task", and its only turn is used up.
		expect((await rpc.prompt("beta task")).finalText).toBe("SCRIPT DONE");

		await rpc.newSession();
		expect((await rpc.prompt("beta task")).finalText).toBe("BETA REPLY");
		await rpc.newSession();
		expect((await rpc.prompt("something else")).finalText).toBe("DEFAULT REPLY");

		// The script is re-read on every model request.
		await writeScript(sb, { conversations: [{ turns: [{ text: "REWRITTEN" }] }] });
		await rpc.newSession();
		expect((await rpc.prompt("alpha task")).finalText).toBe("REWRITTEN");
	});

	it("userBash runs a user command", async () => {
		const sb = await sandbox();
		await writeScript(sb, { conversations: [{ turns: [] }] });
		const rpc = await startRpc({ sandbox: sb, extensions: [], dialog: never });

		const outcome = await rpc.userBash("echo x > ub.txt");

		expect(outcome).toMatchObject({ success: true, exitCode: 0, cancelled: false });
		expect(readFileSync(sb.workPath("ub.txt"), "utf8")).toBe("x\n");
	});

	it("a dialog left open can be awaited and answered by hand", async () => {
		const sb = await sandbox();
		await sb.writeWorkFile("victim.txt", "doomed");
		await writeScript(sb, bashThenEcho("rm -f victim.txt"));
		const rpc = await startRpc({ sandbox: sb, extensions: [ASK_RM_FIXTURE], dialog: never });

		const running = rpc.prompt("delete it");
		const dialog = await rpc.waitForDialog((request) => request.title === "fixture: allow?");
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		rpc.respond(dialog.request.id, { select: "Allow" });
		const run = await running;

		expect(run.toolResults).toMatchObject([{ isError: false }]);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
	});

	it("persistSession stores the session under the sandbox agent dir", async () => {
		const sb = await sandbox();
		await writeScript(sb, { conversations: [{ turns: [{ text: "ok" }] }] });
		const rpc = await startRpc({ sandbox: sb, extensions: [], dialog: never, persistSession: true });

		await rpc.prompt("remember me");
		const state = await rpc.getState();

		expect(state.sessionFile?.startsWith(path.join(sb.agentDir, "sessions") + path.sep)).toBe(true);
		expect(state.sessionFile?.endsWith(`_${state.sessionId}.jsonl`)).toBe(true);
	});

	it("the watchdog fails a prompt stuck on an unanswered dialog and kills pi", async () => {
		const sb = await sandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await writeScript(sb, bashThenEcho("rm -f victim.txt"));
		const rpc = await startRpc({ sandbox: sb, extensions: [ASK_RM_FIXTURE], dialog: never });
		const pid = rpc.pid;
		expect(pid).toBeTypeOf("number");

		await expect(rpc.prompt("delete it", { timeoutMs: 3_000 })).rejects.toThrow(
			/timed out after \d+ ms waiting for agent_settled[\s\S]*pending dialog: select "fixture: allow\?"/,
		);
		await rpc.exited;
		expect(isAlive(pid ?? -1)).toBe(false);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		// Later operations fail at once with the same error instead of hanging.
		await expect(rpc.getState()).rejects.toThrow(/RPC watchdog/);
	});

	it("a dialog policy that runs out of answers fails the session loudly", async () => {
		const sb = await sandbox();
		await writeScript(sb, bashThenEcho("rm -f a.txt"));
		const rpc = await startRpc({ sandbox: sb, extensions: [ASK_RM_FIXTURE], dialog: scripted([]) });

		await expect(rpc.prompt("delete it")).rejects.toThrow(/scripted dialog policy has 0 answer\(s\)/);
		await rpc.exited;
	});
});
