/**
 * The gate's dialog in RPC mode, with the test playing the human: what each answer does to the files on disk,
 * what the model is told, and what the audit log records.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { never, pickOption, scripted } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	bash,
	entryFor,
	gateSandbox,
	resultOf,
	scriptOf,
	stopRpcAndCleanUp,
	USER_DENIAL,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

async function victimSandbox(): Promise<Sandbox> {
	const sb = await gateSandbox();
	await sb.writeWorkFile("victim.txt", "keep me");
	await writeScript(sb, scriptOf([bash("rm -f victim.txt")]));
	return sb;
}

describe("answers at the dialog", () => {
	it("shows what, tier and choices; Allow once runs the call and records the human", async () => {
		const sb = await victimSandbox();
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: pickOption("Allow once"),
		});

		const run = await rpc.prompt("delete it");

		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		expect(run.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		expect(run.dialogs).toHaveLength(1);
		const [dialog] = run.dialogs;
		expect(dialog?.request.method).toBe("select");
		if (dialog?.request.method !== "select") throw new Error("expected a select dialog");
		expect(dialog.request.title).toContain("Permission needed: bash (destructive)");
		expect(dialog.request.title).toContain("bash: rm -f victim.txt");
		expect(dialog.request.title).toContain(`Directory: ${sb.workDir}`);
		expect(dialog.request.options).toEqual([
			"Allow once",
			"Allow for this session: rm -f victim.txt",
			"Deny",
			"Deny with a reason…",
			`Always deny in ${sb.workDir}: rm -f victim.txt`,
		]);

		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			origin: { kind: "human" },
			tier: "destructive",
			mode: "ask",
			outcome: "allow",
			source: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
		});
	});

	it("Deny keeps the file and the model is told the user denied it", async () => {
		const sb = await victimSandbox();
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: pickOption((o) => o === "Deny"),
		});

		const run = await rpc.prompt("delete it");

		expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me");
		expect(run.toolResults).toMatchObject([{ isError: true }]);
		expect(run.toolResults[0]?.text).toMatch(/^The user denied this bash call \(rm -f victim\.txt\)\./);
		expect(run.finalText).toContain("The user denied");
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			outcome: "deny",
			source: { kind: "user", verdict: "deny", scope: "once" },
		});
	});

	it("Deny with a reason passes the typed reason to the model and the audit", async () => {
		const sb = await victimSandbox();
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: pickOption("Deny with a reason", "  that file is the only copy  "),
		});

		const run = await rpc.prompt("delete it");

		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(run.dialogs.map((d) => d.request.method)).toEqual(["select", "input"]);
		expect(run.toolResults[0]?.text).toContain('Their reason: "that file is the only copy".');
		expect(run.finalText).toContain("that file is the only copy");
		const [entry] = await auditEntries(sb, 1);
		expect(entry?.source).toMatchObject({
			kind: "user",
			verdict: "deny",
			reason: "that file is the only copy",
		});
	});

	it("Esc (cancel) counts as the user's deny: dismissed", async () => {
		const sb = await victimSandbox();
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: scripted([{ cancel: true }]),
		});

		const run = await rpc.prompt("delete it");

		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(run.toolResults[0]?.text).toMatch(/^The user denied/);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			outcome: "deny",
			source: { kind: "user", via: "dialog", verdict: "deny", reason: "dismissed the dialog" },
		});
	});

	it("an unanswered dialog times out as 'no one could be asked', not as a user denial", async () => {
		const sb = await victimSandbox();
		await writeUserConfig(sb, { dialogTimeoutSeconds: 1 });
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: never });

		const started = Date.now();
		const run = await rpc.prompt("delete it", { timeoutMs: 15_000 });

		expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(run.dialogs).toHaveLength(1);
		expect(run.dialogs[0]?.request).toMatchObject({ method: "select", timeout: 1_000 });
		const text = run.toolResults[0]?.text ?? "";
		expect(text).toContain("no one could be asked: no answer within 1 s");
		expect(text).toContain("This is not a user denial.");
		expect(text).not.toMatch(USER_DENIAL);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			mode: "ask",
			outcome: "deny",
			source: { kind: "unavailable", reason: "no answer within 1 s" },
		});
	});
});

describe("a dialog that ends without an answer", () => {
	it("aborting the run withdraws the open dialog: blocked as unanswered, the file survives", async () => {
		const sb = await victimSandbox();
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: never });

		const running = rpc.prompt("delete it");
		await rpc.waitForDialog((request) => request.method === "select");
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		await rpc.request({ type: "abort" });
		const run = await running;

		expect(run.aborted).toBe(true);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(run.toolResults).toMatchObject([{ isError: true }]);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			outcome: "deny",
			source: { kind: "unavailable", reason: "the call was cancelled while the dialog was open" },
		});
		expect(entry?.reason).not.toMatch(USER_DENIAL);
	});
});

describe("allow for this session", () => {
	it("covers later calls matching the suggested pattern without asking, but never outranks a deny rule", async () => {
		const sb = await gateSandbox();
		const config = await writeUserConfig(sb, {
			rules: [
				{ surface: "command", pattern: "mkdir -p forbidden*", action: "deny", reason: "reserved name" },
			],
		});
		await writeScript(
			sb,
			scriptOf(
				[bash("mkdir -p d1")],
				[bash("mkdir -p d2")],
				[bash("mkdir -p forbidden-dir")],
				[bash("touch t.txt")],
			),
		);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: scripted([pickOption("Allow for this session: mkdir *"), pickOption((o) => o === "Deny")]),
		});

		const run = await rpc.prompt("make directories");
		const records = run.records;
		const result = (command: string) => resultOf(records, run.toolResults, command);

		// One dialog for mkdir (granted for the session), one for touch (not covered by `mkdir *`).
		expect(run.dialogs.map((d) => d.request.method)).toEqual(["select", "select"]);
		const [first, second] = run.dialogs;
		if (first?.request.method !== "select" || second?.request.method !== "select") throw new Error("selects");
		expect(first.request.title).toContain("bash: mkdir -p d1");
		expect(second.request.title).toContain("bash: touch t.txt");

		expect(existsSync(sb.workPath("d1"))).toBe(true);
		expect(existsSync(sb.workPath("d2"))).toBe(true);
		expect(result("mkdir -p d2").isError).toBe(false);
		expect(existsSync(sb.workPath("forbidden-dir"))).toBe(false);
		expect(result("mkdir -p forbidden-dir").text).toContain(
			'matches the deny rule command "mkdir -p forbidden*"',
		);
		expect(result("mkdir -p forbidden-dir").text).toContain("Reason: reserved name.");
		expect(existsSync(sb.workPath("t.txt"))).toBe(false);

		const entries = await auditEntries(sb, 4);
		expect(entryFor(entries, "mkdir -p d1").source).toMatchObject({ kind: "user", scope: "session" });
		expect(entryFor(entries, "mkdir -p d2")).toMatchObject({
			mode: "auto",
			outcome: "allow",
			source: { kind: "session_grant", surface: "command", pattern: "mkdir *", scope: "session" },
		});
		expect(entryFor(entries, "mkdir -p forbidden-dir")).toMatchObject({
			mode: "deny",
			outcome: "deny",
			source: { kind: "rule", pattern: "mkdir -p forbidden*", origin: { file: config } },
		});
		expect(entryFor(entries, "touch t.txt").source).toMatchObject({ kind: "user", verdict: "deny" });
	});

	it("ends with the session: after new_session the same command asks again", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, scriptOf([bash("mkdir -p d1")], [bash("mkdir -p d2")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: scripted([pickOption("Allow for this session: mkdir *"), pickOption((o) => o === "Deny")]),
		});

		const granted = await rpc.prompt("make directories");
		expect(granted.dialogs).toHaveLength(1);
		expect(existsSync(sb.workPath("d2"))).toBe(true);

		await rpc.newSession();
		await writeScript(sb, scriptOf([bash("mkdir -p d3")]));
		const fresh = await rpc.prompt("make another");

		expect(fresh.dialogs).toHaveLength(1);
		expect(existsSync(sb.workPath("d3"))).toBe(false);
		const entries = await auditEntries(sb, 3);
		expect(new Set(entries.map((e) => e.sessionId)).size).toBe(2);
		expect(entryFor(entries, "mkdir -p d3").source).toMatchObject({ kind: "user", verdict: "deny" });
	});

	it("is not offered for a destructive command beyond its exact text", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("a.txt", "a");
		await sb.writeWorkFile("b.txt", "b");
		await writeScript(sb, scriptOf([bash("rm -f a.txt")], [bash("rm -f b.txt")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: scripted([pickOption("Allow for this session"), pickOption((o) => o === "Deny")]),
		});

		const run = await rpc.prompt("delete both");

		// The grant named exactly `rm -f a.txt`, so `rm -f b.txt` asked again.
		expect(run.dialogs).toHaveLength(2);
		expect(existsSync(sb.workPath("a.txt"))).toBe(false);
		expect(existsSync(sb.workPath("b.txt"))).toBe(true);
		await auditEntries(sb, 2);
	});
});
