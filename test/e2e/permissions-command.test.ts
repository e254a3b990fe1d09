import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type DialogAnswer, type DialogPolicy, scripted } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { PermissionsWalk, walking } from "../harness/permissions-walk.ts";
import { startRpc } from "../harness/rpc-session.ts";
import { bash, gateSandbox, promptsOf, stopRpcAndCleanUp, writeUserConfig } from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

describe("/permissions in pi", () => {
	it("shows where each rule came from, the ceiling, the chain, recent decisions and grants; revokes a grant", async () => {
		const sb = await gateSandbox();
		const config = await writeUserConfig(sb, {
			rules: [
				{ surface: "command", pattern: "git push --force*", action: "deny", reason: "reviewed by humans" },
			],
			authorizerChain: ["nobody-registered-this"],
			grantCeiling: { tier: "network-egress", reason: "this machine deploys" },
		});
		await writeScript(sb, promptsOf([bash("mkdir -p d1")], [bash("mkdir -p d2")], [bash("mkdir -p d3")]));
		// Every part of the report is looked at; the grant line is chosen when its part comes.
		const walk = new PermissionsWalk((line) => line.startsWith('command "mkdir *"'));
		const dialog: DialogPolicy = walking(
			walk,
			scripted([{ select: "Allow for this session: mkdir *" }, { confirm: true }, { select: "Allow once" }]),
		);
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog, timeoutMs: 30_000 });

		const first = await rpc.prompt("first");
		expect(first.toolResults[0]?.isError).toBe(false);
		const second = await rpc.prompt("second");
		expect(second.dialogs).toHaveLength(0);

		const report = await rpc.prompt("/permissions");
		expect(report.disposition).toBe("handled");
		const reportLines = walk.lines;
		// The grant's part comes last: the walk saw every part before it chose the grant.
		expect(reportLines.filter((line) => line.startsWith("── "))).toHaveLength(10);
		expect(reportLines).toContain(
			`deny command "git push --force*" (reviewed by humans) — ${config} rules[0] (line 3)`,
		);
		expect(
			reportLines.some(
				(l) => l.startsWith("grant ceiling: network-egress — RAISED") && l.includes("this machine deploys"),
			),
		).toBe(true);
		expect(reportLines).toContain("1. nobody-registered-this — NOT registered (skipped)");
		expect(reportLines).toContain(
			"on (/usr/bin/bwrap): bash commands allowed without a human run in the sandbox of their tier",
		);
		expect(
			reportLines.some((l) => l.includes("allow bash: mkdir -p d2") && l.includes("session_grant")),
		).toBe(true);
		expect(
			reportLines.some(
				(l) => l.includes("allow bash: mkdir -p d1") && l.includes("user(dialog, allow session"),
			),
		).toBe(true);

		// The grant is revoked: the next matching call asks again.
		const third = await rpc.prompt("third");
		expect(third.dialogs).toHaveLength(1);
		expect(third.toolResults[0]?.isError).toBe(false);
	});
});

describe("/permissions: adding a rule", () => {
	it("adds a deny rule to the user config, which holds in the live session and is listed as saved", async () => {
		const sb = await gateSandbox();
		const config = await writeUserConfig(sb, { rules: [] });
		await writeScript(sb, promptsOf([bash("curl https://example.com")]));
		const answers: Record<string, DialogAnswer> = {
			"pi-permission-hub: permissions": { select: "Add a rule…" },
			"pi-permission-hub: permissions › add a rule: what it matches": {
				select: "command — a shell command (git push *)",
			},
			"Pattern for command": { input: "curl *" },
			'pi-permission-hub: permissions › add a rule: command "curl *"': { select: "deny" },
		};
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: (request) => {
				const answer = answers[request.title];
				if (answer === undefined) throw new Error(`unexpected dialog: ${request.title}`);
				return answer;
			},
			timeoutMs: 30_000,
		});

		expect((await rpc.prompt("/permissions")).disposition).toBe("handled");
		expect(rpc.notifications.map((n) => n.message)).toContain(
			`pi-permission-hub: added deny command "curl *" (${config})`,
		);
		expect(JSON.parse(readFileSync(config, "utf8")).rules).toMatchObject([
			{ surface: "command", pattern: "curl *", action: "deny" },
		]);
		// The live session holds it at once: the call is refused by the rule, with no dialog.
		const run = await rpc.prompt("fetch it");
		expect(run.dialogs).toEqual([]);
		expect(run.toolResults[0]?.text).toContain('deny rule command "curl *"');
	});
});

describe("/permissions with a repository's project file", () => {
	it("shows a rule's pattern and reason without their escape sequences or line breaks", async () => {
		const sb = await gateSandbox();
		// A reason that, printed raw, erases the line above it and writes a made-up one.
		const reason = "safe\u001b[1A\u001b[2K\rsandbox: on\nall clear";
		await sb.writeWorkFile(
			".pi/pi-permission-hub.json",
			JSON.stringify({ rules: [{ surface: "command", pattern: "curl *", action: "deny", reason }] }),
		);
		await writeScript(sb, promptsOf());
		const walk = new PermissionsWalk();
		const dialog: DialogPolicy = walking(walk, scripted([]));
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog, timeoutMs: 30_000 });

		const report = await rpc.prompt("/permissions");
		expect(report.disposition).toBe("handled");
		const reportLines = walk.lines;
		const rule = reportLines.find((line) => line.startsWith('deny command "curl *"'));
		expect(rule).toContain("(safe␛[1A␛[2K␍sandbox: on ⏎ all clear)");
		// biome-ignore lint/suspicious/noControlCharactersInRegex: what no report line may carry
		for (const line of reportLines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
	});
});
