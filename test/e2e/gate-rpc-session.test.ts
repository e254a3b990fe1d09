/**
 * The gate around one RPC session: the human's own `!` commands, a broken config (visible, fail closed, and
 * healed by fixing the file), and the audit log's one line per decision.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { allowAll, never } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import {
	auditEntries,
	bash,
	entryFor,
	gateSandbox,
	promptsOf,
	scriptOf,
	stopRpcAndCleanUp,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

describe("user bash (`!cmd`, RPC `bash`)", () => {
	it("a denied command is blocked with the reason as its output; the file survives", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		const config = await writeUserConfig(sb, {
			rules: [{ surface: "command", pattern: "rm *", action: "deny", reason: "use the trash instead" }],
		});
		await writeScript(sb, { conversations: [{ turns: [] }] });
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: never });

		const outcome = await rpc.userBash("rm -f victim.txt");

		expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me");
		expect(outcome).toMatchObject({ success: true, exitCode: 1, cancelled: false });
		if (!outcome.success) throw new Error("bash command failed");
		expect(outcome.output).toContain('this command (rm -f victim.txt) matches the deny rule command "rm *"');
		expect(outcome.output).toContain(config);
		expect(outcome.output).toContain("Reason: use the trash instead.");
		expect(rpc.dialogs).toHaveLength(0);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			event: "user_bash",
			preview: "rm -f victim.txt",
			mode: "deny",
			outcome: "deny",
			source: { kind: "rule", pattern: "rm *" },
		});
	});

	it("commands that would ask for the model run without a dialog: nobody is asked about their own command", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("scratch.txt", "temporary");
		await writeScript(sb, { conversations: [{ turns: [] }] });
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: never });

		const touched = await rpc.userBash("touch typed.txt");
		const removed = await rpc.userBash("rm -f scratch.txt");

		expect(touched).toMatchObject({ success: true, exitCode: 0 });
		expect(removed).toMatchObject({ success: true, exitCode: 0 });
		expect(existsSync(sb.workPath("typed.txt"))).toBe(true);
		expect(existsSync(sb.workPath("scratch.txt"))).toBe(false);
		expect(rpc.dialogs).toHaveLength(0);
		const entries = await auditEntries(sb, 2);
		expect(entryFor(entries, "touch typed.txt")).toMatchObject({
			event: "user_bash",
			tier: "write",
			outcome: "allow",
			source: { kind: "user", via: "typed", verdict: "allow" },
		});
		expect(entryFor(entries, "rm -f scratch.txt")).toMatchObject({ tier: "destructive", outcome: "allow" });
	});
});

describe("config errors in an interactive session", () => {
	it("notify the human once, show in the status, block every call, and heal when the file is fixed", async () => {
		const sb = await gateSandbox();
		const config = await writeUserConfig(sb, '{ "rules": [], "dialogTimeoutSecs": 5 }');
		await writeScript(sb, promptsOf([bash("ls")], [bash("ls")]));
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: never });

		const broken = await rpc.prompt("list");

		expect(broken.toolResults).toMatchObject([{ isError: true }]);
		expect(broken.toolResults[0]?.text).toContain(`config error in ${config} at dialogTimeoutSecs`);
		const errors = rpc.notifications.filter((n) => n.notifyType === "error");
		expect(errors).toHaveLength(1);
		expect(errors[0]?.message).toContain(config);
		expect(errors[0]?.message).toContain('unknown key "dialogTimeoutSecs"');
		expect(rpc.statuses.get("pi-permission-hub")).toContain("config error");
		const typed = await rpc.userBash("touch typed.txt");
		expect(typed).toMatchObject({ success: true, exitCode: 1 });
		expect(existsSync(sb.workPath("typed.txt"))).toBe(false);

		await writeUserConfig(sb, { rules: [], dialogTimeoutSeconds: 5 });
		const fixed = await rpc.prompt("list again");

		expect(fixed.toolResults).toMatchObject([{ isError: false }]);
		expect(rpc.statuses.has("pi-permission-hub")).toBe(false);
		expect(rpc.notifications.filter((n) => n.notifyType === "error")).toHaveLength(1);
		const entries = await auditEntries(sb, 3);
		expect(entries.map((e) => [e.event, e.outcome, e.source.kind])).toEqual([
			["tool_call", "deny", "gate_error"],
			["user_bash", "deny", "gate_error"],
			["tool_call", "allow", "rule"],
		]);
	});
});

describe("hidden tools follow the config", () => {
	it("a tool hidden by a deny rule comes back once the rule is removed, and goes again when it returns", async () => {
		const sb = await gateSandbox();
		const denyWrite = { rules: [{ surface: "tool", pattern: "write", action: "deny" }] };
		await writeUserConfig(sb, denyWrite);
		const write = (file: string) => [{ tool: "write", input: { path: file, content: "x\n" } }];
		await writeScript(sb, promptsOf(write("first.txt"), write("second.txt"), write("third.txt")));
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: allowAll });

		const hidden = await rpc.prompt("write one");
		expect(hidden.toolResults).toMatchObject([{ isError: true, text: "Tool write not found" }]);

		await writeUserConfig(sb, { rules: [] });
		const back = await rpc.prompt("write two");
		expect(back.toolResults).toMatchObject([{ isError: false }]);
		expect(back.dialogs).toHaveLength(1);

		await writeUserConfig(sb, denyWrite);
		const again = await rpc.prompt("write three");
		expect(again.toolResults).toMatchObject([{ isError: true, text: "Tool write not found" }]);

		expect(existsSync(sb.workPath("first.txt"))).toBe(false);
		expect(readFileSync(sb.workPath("second.txt"), "utf8")).toBe("x\n");
		expect(existsSync(sb.workPath("third.txt"))).toBe(false);
		// Only the call that reached the gate was decided.
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({ tool: "write", outcome: "allow", source: { kind: "user" } });
	});
});

describe("the audit log", () => {
	it("has exactly one valid line per decision across calls, dialogs and user commands", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await writeUserConfig(sb, { rules: [{ surface: "command", pattern: "rm *", action: "deny" }] });
		await writeScript(
			sb,
			scriptOf([bash("ls"), bash("rm -f victim.txt"), bash("touch t.txt")], [bash("echo done")]),
		);
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: allowAll });

		const run = await rpc.prompt("work");
		await rpc.userBash("echo typed");
		await rpc.userBash("rm -f victim.txt");

		expect(run.dialogs).toHaveLength(1);
		expect(run.toolResults).toHaveLength(4);
		const entries = await auditEntries(sb, 6);
		expect(entries.map((e) => `${e.event}:${e.preview}`).sort()).toEqual(
			[
				"tool_call:ls",
				"tool_call:rm -f victim.txt",
				"tool_call:touch t.txt",
				"tool_call:echo done",
				"user_bash:echo typed",
				"user_bash:rm -f victim.txt",
			].sort(),
		);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(existsSync(sb.workPath("t.txt"))).toBe(true);
		// Still exactly six after pi has shut down: nothing is written twice on exit.
		await rpc.close();
		await auditEntries(sb, 6);
	});
});
