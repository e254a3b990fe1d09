/**
 * The gate in print mode (`pi -p`, `pi --mode json -p`): real pi, the built extension, real files.
 * Nobody can be asked here, so every ask ends blocked — and the model must be told it was not a human's no.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import type { JsonRecord } from "../harness/jsonl-record.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	auditLines,
	bash,
	cleanupSandboxes,
	entryFor,
	gateSandbox,
	resultOf,
	scriptOf,
	USER_DENIAL,
	userConfigFile,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(cleanupSandboxes);

function runJson(sb: Sandbox, prompt = "do the task", args: readonly string[] = []) {
	return runPrint({ sandbox: sb, prompt, extensions: [EXTENSION_ENTRY], mode: "json", args });
}

describe("policy decisions without a UI", () => {
	it("a deny rule blocks the call, names rule, file and reason, and the file survives", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		const config = await writeUserConfig(sb, {
			rules: [
				{ surface: "command", pattern: "rm *", action: "deny", reason: "deleting is reserved for humans" },
			],
		});
		await writeScript(sb, scriptOf([bash("rm -f victim.txt")]));

		const run = await runJson(sb);

		expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me");
		const [result] = run.toolResults;
		expect(result?.isError).toBe(true);
		expect(result?.text).toContain('matches the deny rule command "rm *"');
		expect(result?.text).toContain(`${config} (rules[0]`);
		expect(result?.text).toContain("Reason: deleting is reserved for humans.");
		expect(result?.text).toContain("Do not retry");
		expect(result?.text).not.toMatch(USER_DENIAL);
		// The model really received it: the echo turn quotes the tool result it was given.
		expect(run.finalText).toContain("deleting is reserved for humans");

		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			event: "tool_call",
			tool: "bash",
			tier: "destructive",
			preview: "rm -f victim.txt",
			mode: "deny",
			outcome: "deny",
			origin: { kind: "headless" },
			source: {
				kind: "rule",
				surface: "command",
				pattern: "rm *",
				action: "deny",
				origin: { file: config, jsonPath: "rules[0]" },
				reason: "deleting is reserved for humans",
			},
			configFiles: [config],
		});
	});

	it("read-tier calls and allow rules within the ceiling run; an allow rule on a destructive command does not", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("notes.txt", "read me\n");
		await sb.writeWorkFile("victim.txt", "keep me");
		const config = await writeUserConfig(sb, {
			rules: [
				{ surface: "command", pattern: "touch *", action: "allow" },
				{ surface: "command", pattern: "rm *", action: "allow" },
			],
		});
		await writeScript(
			sb,
			scriptOf([bash("ls"), bash("cat notes.txt"), bash("touch made.txt"), bash("rm -f victim.txt")]),
		);

		const run = await runJson(sb);
		const result = (command: string) => resultOf(run.events, run.toolResults, command);

		expect(result("ls")).toMatchObject({ isError: false });
		expect(result("ls").text).toContain("notes.txt");
		expect(result("cat notes.txt")).toMatchObject({ isError: false, text: "read me\n" });
		expect(result("touch made.txt").isError).toBe(false);
		expect(existsSync(sb.workPath("made.txt"))).toBe(true);
		// rm is destructive: above the default grant ceiling (write), so the allow rule does not approve it.
		expect(result("rm -f victim.txt").isError).toBe(true);
		// Headless, the default unanswered policy parks the ask instead of running it.
		expect(result("rm -f victim.txt").text).toContain("is pending approval");
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);

		const entries = await auditEntries(sb, 4);
		expect(entryFor(entries, "ls")).toMatchObject({
			tier: "read",
			mode: "auto",
			outcome: "allow",
			source: { kind: "rule", surface: "tier", pattern: "read", origin: { file: "built-in" } },
		});
		expect(entryFor(entries, "cat notes.txt")).toMatchObject({ tier: "read", outcome: "allow" });
		expect(entryFor(entries, "touch made.txt")).toMatchObject({
			tier: "write",
			mode: "auto",
			outcome: "allow",
			source: {
				kind: "rule",
				surface: "command",
				pattern: "touch *",
				action: "allow",
				origin: { file: config },
			},
		});
		const rm = entryFor(entries, "rm -f victim.txt");
		expect(rm).toMatchObject({ tier: "destructive", mode: "ask", outcome: "pending" });
	});

	it("an ask with no UI is blocked as 'no one could be asked', never as a user denial", async () => {
		const sb = await gateSandbox();
		await writeUserConfig(sb, { unanswered: "deny" });
		await writeScript(sb, scriptOf([bash("touch wanted.txt")]));

		const run = await runJson(sb);

		expect(existsSync(sb.workPath("wanted.txt"))).toBe(false);
		const [result] = run.toolResults;
		expect(result?.isError).toBe(true);
		expect(result?.text).toContain("needs approval (tier write), but no one could be asked");
		expect(result?.text).toContain("This is not a user denial.");
		expect(result?.text).not.toMatch(USER_DENIAL);

		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({ mode: "ask", outcome: "deny", source: { kind: "unavailable" } });
		expect(entry?.reason).not.toMatch(USER_DENIAL);
	});

	it("with the default unanswered policy an ask without a UI does not run and is not called a user denial", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, scriptOf([bash("touch wanted.txt")]));

		const run = await runJson(sb);

		expect(existsSync(sb.workPath("wanted.txt"))).toBe(false);
		expect(run.toolResults).toMatchObject([{ isError: true }]);
		expect(run.toolResults[0]?.text).toMatch(/not a (user )?denial/);
		expect(run.toolResults[0]?.text).not.toMatch(USER_DENIAL);
		const [entry] = await auditEntries(sb, 1);
		// Refused now, or parked for a later approval: either way nobody decided, and the source says so.
		expect(["deny", "pending"]).toContain(entry?.outcome);
		expect(entry?.source.kind).toBe("unavailable");
	});
});

describe("operator settings", () => {
	it("a raised grant ceiling lets an allow rule approve a destructive command, and the audit records it", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("build.log", "old");
		await writeUserConfig(sb, {
			grantCeiling: { tier: "destructive", reason: "CI sandbox, nothing to lose" },
			rules: [{ surface: "command", pattern: "rm -f build.log", action: "allow" }],
		});
		await writeScript(sb, scriptOf([bash("rm -f build.log")]));

		const run = await runJson(sb);

		expect(run.toolResults).toMatchObject([{ isError: false }]);
		expect(existsSync(sb.workPath("build.log"))).toBe(false);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			tier: "destructive",
			mode: "auto",
			outcome: "allow",
			source: { kind: "rule", pattern: "rm -f build.log", action: "allow" },
			ceiling: { tier: "destructive", reason: "CI sandbox, nothing to lose" },
		});
	});

	it("an agentRules deny for headless runs blocks every call, even a read", async () => {
		const sb = await gateSandbox();
		const config = await writeUserConfig(sb, { agentRules: { deny: [{ kind: "headless" }] } });
		await writeScript(sb, scriptOf([bash("ls")]));

		const run = await runJson(sb);

		expect(run.toolResults).toMatchObject([{ isError: true }]);
		expect(run.toolResults[0]?.text).toContain(`comes from headless, which agentRules.deny in ${config}`);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({ mode: "deny", outcome: "deny", origin: { kind: "headless" } });
	});
});

describe("config errors fail closed", () => {
	it("invalid JSON blocks even `ls`, naming the file and the place", async () => {
		const sb = await gateSandbox();
		const config = await writeUserConfig(sb, '{\n\t"rules": [\n\t\t{ "surface": "command", ]\n}\n');
		await writeScript(sb, scriptOf([bash("ls")]));

		const run = await runJson(sb);

		const [result] = run.toolResults;
		expect(result?.isError).toBe(true);
		expect(result?.text).toContain(`config error in ${config} at rules[0] (line 3, column 27)`);
		expect(result?.text).toContain("syntax error");
		expect(result?.text).toContain("all tool calls are blocked until it is fixed");
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			preview: "ls",
			mode: "deny",
			outcome: "deny",
			source: { kind: "gate_error" },
		});
	});

	it("an unknown key blocks even `ls`, naming the file and the JSON path", async () => {
		const sb = await gateSandbox();
		const config = await writeUserConfig(sb, {
			rules: [{ surface: "command", pattern: "ls", action: "allow", reasn: "typo" }],
		});
		await writeScript(sb, scriptOf([bash("ls")]));

		const run = await runJson(sb);

		const [result] = run.toolResults;
		expect(result?.isError).toBe(true);
		expect(result?.text).toContain(`config error in ${config} at rules[0].reasn`);
		expect(result?.text).toContain('unknown key "reasn"');
		await auditEntries(sb, 1);
	});

	it("a broken project file is read only when pi trusts the project (--approve)", async () => {
		const sb = await gateSandbox();
		const projectFile = await sb.writeWorkFile(
			".pi/pi-permission-hub.json",
			'{ "tiers": { "read": "auto" }, "oops": 1 }',
		);
		await writeScript(sb, scriptOf([bash("ls")]));

		const untrusted = await runJson(sb, "untrusted run", ["--no-approve"]);
		expect(untrusted.toolResults).toMatchObject([{ isError: false }]);

		const trusted = await runJson(sb, "trusted run", ["--approve"]);
		expect(trusted.toolResults).toMatchObject([{ isError: true }]);
		expect(trusted.toolResults[0]?.text).toContain(`config error in ${projectFile} at oops`);
		await auditEntries(sb, 2);
	});
});

/** The `<tools>` section of the system prompt the model was given, from the run's final message list. */
function declaredToolsSection(events: readonly JsonRecord[]): string {
	const end = events.findLast((e) => e.type === "agent_end");
	const messages: unknown = end?.messages;
	if (!Array.isArray(messages)) throw new Error("agent_end carries no messages");
	const sections = messages
		.map((m: unknown) => (typeof m === "object" && m !== null ? Reflect.get(m, "sections") : undefined))
		.filter((s): s is object => typeof s === "object" && s !== null)
		.map((s) => Reflect.get(s, "tools"))
		.filter((t): t is string => typeof t === "string");
	const last = sections.at(-1);
	if (last === undefined) throw new Error("no system message with a tools section");
	return last;
}

describe("hiding denied tools", () => {
	// Observable used: the `<tools>` section of the system message pi records for the run (agent_end), and the
	// result of calling the tool anyway — pi answers "Tool write not found" because it is no longer executable, so
	// the call never even reaches tool_call (no audit line).
	it("a tool deny rule takes the tool out of what the model is given", async () => {
		const control = await gateSandbox();
		await writeScript(control, scriptOf([{ tool: "write", input: { path: "new.txt", content: "x\n" } }]));
		await writeUserConfig(control, { rules: [{ surface: "tool", pattern: "write", action: "allow" }] });
		const visible = await runJson(control);
		expect(declaredToolsSection(visible.events)).toMatch(/^- write:/m);
		expect(readFileSync(control.workPath("new.txt"), "utf8")).toBe("x\n");

		const sb = await gateSandbox();
		await writeUserConfig(sb, {
			rules: [{ surface: "tool", pattern: "write", action: "deny", reason: "read-only task" }],
		});
		await writeScript(sb, scriptOf([{ tool: "write", input: { path: "new.txt", content: "x\n" } }]));

		const run = await runJson(sb);

		const tools = declaredToolsSection(run.events);
		expect(tools).toMatch(/^- read:/m);
		expect(tools).toMatch(/^- bash:/m);
		expect(tools).not.toMatch(/^- write:/m);
		expect(run.toolResults).toMatchObject([
			{ toolName: "write", isError: true, text: "Tool write not found" },
		]);
		expect(existsSync(sb.workPath("new.txt"))).toBe(false);
		expect(auditLines(sb)).toEqual([]);
	});
});

describe("the audit log", () => {
	it("gets exactly one valid line per decision, written before pi exits", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await writeUserConfig(sb, {
			rules: [
				{ surface: "command", pattern: "rm *", action: "deny" },
				{ surface: "command", pattern: "touch *", action: "allow" },
			],
		});
		const commands = ["ls", "rm -f victim.txt", "touch a.txt", "mkdir sub", "echo hi", "cat victim.txt"];
		await writeScript(sb, scriptOf(commands.slice(0, 3).map(bash), commands.slice(3).map(bash)));

		const run = await runPrint({ sandbox: sb, prompt: "go", extensions: [EXTENSION_ENTRY] });

		expect(run.code).toBe(0);
		// Read once, right after exit: no waiting — entries still queued at exit must already be on disk.
		const lines = auditLines(sb);
		expect(lines).toHaveLength(commands.length);
		const entries = await auditEntries(sb, commands.length);
		expect(entries.map((e) => e.preview).sort()).toEqual([...commands].sort());
		expect(new Set(entries.map((e) => e.sessionId)).size).toBe(1);
		expect(entryFor(entries, "rm -f victim.txt").outcome).toBe("deny");
		expect(entryFor(entries, "mkdir sub").outcome).not.toBe("allow");
		expect(existsSync(sb.workPath("sub"))).toBe(false);
		expect(existsSync(sb.workPath("a.txt"))).toBe(true);
		expect(existsSync(userConfigFile(sb))).toBe(true);
	});
});

describe("the bash tool the gate registers", () => {
	it("runs every call with the user's shell settings, inside the sandbox and outside it, as pi's own bash does", async () => {
		for (const sandbox of [false, true]) {
			const sb = await gateSandbox();
			await sb.writeSettings({ shellCommandPrefix: "PPH_SHELL_PREFIX=applied" });
			await writeUserConfig(sb, { sandbox: { enabled: sandbox } });
			await writeScript(
				sb,
				scriptOf([bash('echo "first $PPH_SHELL_PREFIX"'), bash('echo "second $PPH_SHELL_PREFIX"')]),
			);

			const run = await runJson(sb);

			// The two calls of one message run side by side: their results come in the order they finish.
			expect(run.toolResults.map((result) => [result.isError, result.text.trim()]).sort()).toEqual([
				[false, "first applied"],
				[false, "second applied"],
			]);
			const entries = await auditEntries(sb, 2);
			expect(entries.map((entry) => [entry.outcome, entry.sandbox])).toEqual(
				sandbox
					? [
							["allow", "read-only"],
							["allow", "read-only"],
						]
					: [
							["allow", undefined],
							["allow", undefined],
						],
			);
		}
	});

	it("takes a project's shell settings only when pi trusts the project, as pi's own bash does", async () => {
		for (const sandbox of [false, true]) {
			const sb = await gateSandbox();
			await sb.writeWorkFile(
				".pi/settings.json",
				JSON.stringify({ shellCommandPrefix: "PPH_SHELL_PREFIX=project" }),
			);
			await writeUserConfig(sb, { sandbox: { enabled: sandbox } });
			await writeScript(sb, scriptOf([bash('echo "prefix: $PPH_SHELL_PREFIX"')]));

			const untrusted = await runJson(sb, "untrusted run", ["--no-approve"]);
			const trusted = await runJson(sb, "trusted run", ["--approve"]);

			expect(
				[untrusted, trusted].map((run) => run.toolResults.map((r) => [r.isError, r.text.trim()])),
			).toEqual([[[false, "prefix:"]], [[false, "prefix: project"]]]);
			await auditEntries(sb, 2);
		}
	});
});
