import { afterEach, describe, expect, it } from "vitest";
import { type DialogPolicy, scripted } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
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
		let reportLines: string[] = [];
		const dialog: DialogPolicy = scripted([
			{ select: "Allow for this session: mkdir *" },
			(req) => {
				if (req.method !== "select") throw new Error(`expected the report as a select, got ${req.method}`);
				reportLines = [...req.options];
				const grantLine = req.options.find((o) => o.startsWith('command "mkdir *"'));
				if (!grantLine) throw new Error(`no grant line in ${JSON.stringify(req.options)}`);
				return { select: grantLine };
			},
			{ confirm: true },
			{ select: "Allow once" },
		]);
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog, timeoutMs: 30_000 });

		const first = await rpc.prompt("first");
		expect(first.toolResults[0]?.isError).toBe(false);
		const second = await rpc.prompt("second");
		expect(second.dialogs).toHaveLength(0);

		const report = await rpc.prompt("/permissions");
		expect(report.disposition).toBe("handled");
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
		let reportLines: string[] = [];
		const dialog: DialogPolicy = scripted([
			(req) => {
				if (req.method !== "select") throw new Error(`expected the report as a select, got ${req.method}`);
				reportLines = [...req.options];
				return { cancel: true };
			},
		]);
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog, timeoutMs: 30_000 });

		const report = await rpc.prompt("/permissions");
		expect(report.disposition).toBe("handled");
		const rule = reportLines.find((line) => line.startsWith('deny command "curl *"'));
		expect(rule).toContain("(safe␛[1A␛[2K␍sandbox: on ⏎ all clear)");
		// biome-ignore lint/suspicious/noControlCharactersInRegex: what no report line may carry
		for (const line of reportLines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
	});
});
