/**
 * Permission modes (adr/0023) in real pi over RPC: the flag, the config's `defaultMode` and `/permissions mode`
 * set them; each mode's effect is seen by the model, the dialogs and the audit line.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { PLAN_MODE_PROMPT } from "../../src/vocabulary/permission-mode.ts";
import { pickOption, scripted } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import { startRpc } from "../harness/rpc-session.ts";
import {
	auditEntries,
	bash,
	copyOfBuild,
	gateSandbox,
	promptsOf,
	resultOf,
	scriptOf,
	stopRpcAndCleanUp,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

const titles = (run: { readonly dialogs: readonly { readonly request: { readonly method: string } }[] }) =>
	run.dialogs.map((d) => ("title" in d.request ? String(d.request.title).split("\n")[1] : d.request.method));

describe("permission modes (adr/0023)", () => {
	it("--permission-mode plan: a write is refused without a dialog, the model is told why, reads run", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, scriptOf([bash("touch plan.txt"), bash("ls")]));
		const prompts = sb.workPath("system-prompts.jsonl");
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			args: ["--permission-mode", "plan"],
			env: { PPH_FAUX_SYSTEM_PROMPTS: prompts },
			dialog: pickOption("Allow once"),
		});

		const run = await rpc.prompt("change something");

		expect(run.dialogs).toEqual([]);
		expect(existsSync(sb.workPath("plan.txt"))).toBe(false);
		const refused = resultOf(run.records, run.toolResults, "touch plan.txt");
		expect(refused.isError).toBe(true);
		expect(refused.text).toContain("this session is in plan mode, where only reads run");
		expect(resultOf(run.records, run.toolResults, "ls").isError).toBe(false);
		expect(rpc.statuses.get("pi-permission-hub")).toContain("plan mode");
		// Told before it tried anything: every request of the run carried plan mode in its system prompt.
		const requests = readFileSync(prompts, "utf8").trim().split("\n");
		expect(requests.length).toBeGreaterThan(0);
		expect(requests.every((told) => told.includes(PLAN_MODE_PROMPT))).toBe(true);
		const entries = await auditEntries(sb, 2);
		expect(entries.map((e) => [e.outcome, e.source.kind, e.permissionMode])).toEqual([
			["deny", "mode", "plan"],
			["allow", "rule", "plan"],
		]);
	});

	it("a --permission-mode value that names no mode starts the session in plan, the narrowest, and says so", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, scriptOf([bash("touch typo.txt")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			args: ["--permission-mode", "trustd"],
			dialog: pickOption("Allow once"),
		});

		const run = await rpc.prompt("change something");

		expect(run.dialogs).toEqual([]);
		expect(existsSync(sb.workPath("typo.txt"))).toBe(false);
		expect(rpc.notifications.map((n) => n.message)).toContain(
			"pi-permission-hub: --permission-mode trustd names no mode (default, plan, accept-edits, sandboxed, dont-ask, trusted); this session starts in plan mode instead.",
		);
		const [entry] = await auditEntries(sb, 1);
		expect([entry?.source.kind, entry?.permissionMode]).toEqual(["mode", "plan"]);
	});

	it("in print mode, where no UI shows a warning, a misspelt --permission-mode says so on stderr", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, scriptOf([bash("touch typo.txt")]));

		const run = await runPrint({
			sandbox: sb,
			prompt: "change something",
			extensions: [EXTENSION_ENTRY],
			args: ["--permission-mode", "acept-edits"],
		});

		expect(run.stderr).toContain(
			"pi-permission-hub: --permission-mode acept-edits names no mode (default, plan, accept-edits, sandboxed, dont-ask, trusted); this session starts in plan mode instead.",
		);
		expect(existsSync(sb.workPath("typo.txt"))).toBe(false);
	});

	it("defaultMode accept-edits lets a project write run unasked; /permissions mode dont-ask then refuses asks without a dialog", async () => {
		const sb = await gateSandbox();
		await writeUserConfig(sb, { defaultMode: "accept-edits" });
		await writeScript(sb, promptsOf([bash("touch edited.txt")], [bash("touch again.txt")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: pickOption("Allow once"),
		});

		const first = await rpc.prompt("edit");
		expect(first.dialogs).toEqual([]);
		expect(existsSync(sb.workPath("edited.txt"))).toBe(true);
		await rpc.prompt("/permissions mode dont-ask");
		const second = await rpc.prompt("edit again");

		expect(second.dialogs).toEqual([]);
		expect(existsSync(sb.workPath("again.txt"))).toBe(false);
		expect(resultOf(second.records, second.toolResults, "touch again.txt").text).toContain(
			"this session's permission mode is dont-ask, so it was refused without asking",
		);
		const entries = await auditEntries(sb, 2);
		expect(entries.map((e) => [e.outcome, e.source, e.permissionMode])).toEqual([
			["allow", { kind: "mode", mode: "accept-edits" }, "accept-edits"],
			["deny", { kind: "mode", mode: "dont-ask" }, "dont-ask"],
		]);
	});

	it("trusted allows a destructive command unasked, but a privileged one and a deny rule still hold", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("old.log", "x");
		await writeUserConfig(sb, {
			rules: [{ surface: "command", pattern: "git push --force*", action: "deny", reason: "never forced" }],
		});
		await writeScript(
			sb,
			scriptOf([bash("rm -f old.log"), bash("git push --force origin main"), bash("sudo true")]),
		);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			args: ["--permission-mode", "trusted"],
			dialog: scripted([pickOption("Deny")]),
		});

		const run = await rpc.prompt("clean up");

		expect(existsSync(sb.workPath("old.log"))).toBe(false);
		expect(titles(run)).toEqual(["bash: sudo true"]);
		expect(rpc.statuses.get("pi-permission-hub")).toContain("TRUSTED MODE");
		const entries = await auditEntries(sb, 3);
		expect(entries.map((e) => [e.outcome, e.source.kind, e.permissionMode])).toEqual([
			["allow", "mode", "trusted"],
			["deny", "rule", "trusted"],
			["deny", "user", "trusted"],
		]);
	});

	it("a managed config that forbids trusted keeps the session out of it: the flag and /permissions mode are refused", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("old.log", "x");
		const managed = sb.workPath("managed-config.json");
		await sb.writeWorkFile("managed-config.json", JSON.stringify({ allowedModes: ["default", "plan"] }));
		await writeScript(sb, scriptOf([bash("rm -f old.log")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			args: ["--permission-mode", "trusted"],
			env: { PI_PERMISSION_HUB_MANAGED_CONFIG: managed },
			dialog: pickOption("Deny"),
		});

		await rpc.prompt("/permissions mode trusted");
		const run = await rpc.prompt("clean up");

		expect(titles(run)).toEqual(["bash: rm -f old.log"]);
		expect(existsSync(sb.workPath("old.log"))).toBe(true);
		expect(rpc.statuses.get("pi-permission-hub") ?? "").not.toContain("TRUSTED");
		const messages = rpc.notifications.map((n) => n.message);
		expect(messages).toContain(
			"pi-permission-hub: --permission-mode trusted is not allowed by the managed config; this session is in default mode.",
		);
		expect(messages).toContain(
			"pi-permission-hub: trusted mode is not available: the managed config allows only default, plan",
		);
		const [entry] = await auditEntries(sb, 1);
		expect([entry?.source.kind, entry?.permissionMode]).toEqual(["user", "default"]);
	});

	it("installed twice, pi still starts and the flag holds whichever copy gates the session", async () => {
		const sb = await gateSandbox();
		const secondCopy = await copyOfBuild(sb);
		await writeScript(sb, scriptOf([bash("touch plan.txt")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [secondCopy, EXTENSION_ENTRY],
			args: ["--permission-mode", "plan"],
			dialog: pickOption("Allow once"),
		});

		const run = await rpc.prompt("change something");

		expect(run.dialogs).toEqual([]);
		expect(existsSync(sb.workPath("plan.txt"))).toBe(false);
		const [entry] = await auditEntries(sb, 1);
		expect([entry?.source.kind, entry?.permissionMode]).toEqual(["mode", "plan"]);
	});
});
