/**
 * No allowed call runs without its audit line (adr/0005): real pi, the built extension, a real audit path made
 * hostile (a directory, a FIFO, a link to /dev/full) or a real full disk (a tmpfs mounted at the gate's folder).
 * The call is blocked naming the file, the human hears it (stderr without a UI, status and warning with one),
 * and once the file is fixed the next call runs — no restart.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { allowAll } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import { startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	auditFile,
	bash,
	gateSandbox,
	promptsOf,
	scriptOf,
	stopRpcAndCleanUp,
	writeUserConfig,
} from "./gate-support.ts";

const mounts: string[] = [];
afterEach(async () => {
	for (const mount of mounts.splice(0)) execFileSync("umount", [mount]);
	await stopRpcAndCleanUp();
});

const TOUCH_RULE = { rules: [{ surface: "command", pattern: "touch *", action: "allow" }] };

async function printRun(sb: Sandbox) {
	return runPrint({ sandbox: sb, prompt: "do it", extensions: [EXTENSION_ENTRY], mode: "json" });
}

describe("an allowed call whose audit line cannot be written does not run", () => {
	for (const [name, plant] of [
		["a directory", (file: string) => mkdirSync(file)],
		["a FIFO", (file: string) => execFileSync("mkfifo", [file])],
		["a link to /dev/full", (file: string) => symlinkSync("/dev/full", file)],
	] as const) {
		it(`audit.jsonl is ${name}: the rule-allowed touch is blocked, named, and said on stderr`, async () => {
			const sb = await gateSandbox();
			await writeUserConfig(sb, TOUCH_RULE);
			plant(auditFile(sb));
			await writeScript(sb, scriptOf([bash("touch made.txt")]));

			const run = await printRun(sb);

			expect(existsSync(sb.workPath("made.txt"))).toBe(false);
			const [result] = run.toolResults;
			expect(result?.isError).toBe(true);
			expect(result?.text).toContain("its audit line could not be written");
			expect(result?.text).toContain(`${auditFile(sb)} cannot be written`);
			expect(result?.text).not.toMatch(/user denied/i);
			expect(run.stderr).toContain(`the audit log ${auditFile(sb)} cannot be written`);
			expect(run.stderr).toContain("every allowed call is blocked");
		});
	}

	it("the disk fills after start: the call is blocked with ENOSPC; with room again the next call runs and is logged", async () => {
		const sb = await gateSandbox();
		const gateDir = path.join(sb.agentDir, "pi-permission-hub");
		mkdirSync(gateDir, { recursive: true });
		execFileSync("mount", ["-t", "tmpfs", "-o", "size=128k,mode=0700", "tmpfs", gateDir]);
		mounts.push(gateDir);
		await writeUserConfig(sb, TOUCH_RULE);
		await writeScript(sb, promptsOf([bash("touch first.txt")], [bash("touch second.txt")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: allowAll,
			timeoutMs: 30_000,
		});

		const filler = path.join(gateDir, "filler");
		for (let room = true; room; ) {
			try {
				appendFileSync(filler, "x".repeat(4096));
			} catch {
				room = false;
			}
		}
		const blocked = await rpc.prompt("first");
		expect(existsSync(sb.workPath("first.txt"))).toBe(false);
		expect(blocked.toolResults[0]?.text).toContain("the disk is full (ENOSPC)");
		await expect
			.poll(() => rpc.statuses.get("pi-permission-hub") ?? "", { timeout: 5_000 })
			.toContain("audit log cannot be written");
		expect(rpc.notifications.map((n) => n.message).join("\n")).toContain("every allowed call is blocked");

		rmSync(filler);
		const ran = await rpc.prompt("second");
		expect(ran.toolResults[0]?.isError).toBe(false);
		expect(existsSync(sb.workPath("second.txt"))).toBe(true);
		const entries = await auditEntries(sb, 2);
		// The blocked call's line, kept while the disk was full, then the one that ran.
		expect(entries.map((e) => [e.preview, e.outcome])).toEqual([
			["touch first.txt", "deny"],
			["touch second.txt", "allow"],
		]);
		expect(entries[0]?.source).toMatchObject({ kind: "gate_error" });
		await expect
			.poll(() => rpc.statuses.get("pi-permission-hub") ?? "", { timeout: 5_000 })
			.not.toContain("audit log");
	});
});
