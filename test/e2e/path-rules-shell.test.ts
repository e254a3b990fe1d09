/**
 * A write path rule in real pi: the write tool and shell commands whose only effects are writes under the
 * rule's paths run without asking; a write elsewhere is parked, and `pending` and `explain` name the part that
 * asked.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
	assertCliBuilt,
	auditLogPath,
	bash,
	cleanupCliSandboxes,
	cliSandbox,
	parkedId,
	piRun,
	resultText,
	runCli,
	runCliJson,
	waitForAuditLines,
} from "../cli/cli-support.ts";

beforeAll(assertCliBuilt);
afterEach(cleanupCliSandboxes);

describe("a write path rule covers shell writes whose effects the gate knows", () => {
	it("touch, a redirect, mkdir and cp under src/ run; a write elsewhere asks and is named", async () => {
		const sb = await cliSandbox();
		await sb.writeAgentFile(
			path.join("pi-permission-hub", "config.json"),
			JSON.stringify({ rules: [{ surface: "write", pattern: "src/**", action: "allow" }] }),
		);
		await sb.writeWorkFile("src/keep.ts", "");
		await sb.writeWorkFile("README.md", "# readme");

		const run = await piRun(sb, [
			{ tool: "write", input: { path: "src/by-tool.ts", content: "tool\n" } },
			bash("touch src/x.ts"),
			bash("echo hi > src/y.ts"),
			bash("mkdir -p src/lib && cp README.md src/lib/README.md"),
			bash("touch other.ts"),
			bash("node gen.js > src/gen.ts"),
		]);
		for (const command of [
			"touch src/x.ts",
			"echo hi > src/y.ts",
			"mkdir -p src/lib && cp README.md src/lib/README.md",
		]) {
			expect(resultText(run, command).isError, command).toBe(false);
		}
		expect(readFileSync(sb.workPath("src/y.ts"), "utf8")).toBe("hi\n");
		expect(existsSync(sb.workPath("src/x.ts"))).toBe(true);
		expect(existsSync(sb.workPath("src/lib/README.md"))).toBe(true);
		expect(existsSync(sb.workPath("src/by-tool.ts"))).toBe(true);
		// Outside the rule, and a command whose effects go beyond the file it names: parked, not run.
		expect(existsSync(sb.workPath("other.ts"))).toBe(false);
		expect(existsSync(sb.workPath("src/gen.ts"))).toBe(false);
		const id = parkedId(resultText(run, "touch other.ts").text);

		const pending = await runCliJson(sb, ["pending"]);
		const requests = z
			.object({ requests: z.array(z.object({ id: z.string(), why: z.string() })) })
			.parse(pending.json).requests;
		expect(requests.find((r) => r.id === id)?.why).toBe(
			"the write tier asks (built-in default) for: touch other.ts",
		);

		const logged = await waitForAuditLines(auditLogPath(sb), 6);
		expect(logged.map((entry) => entry.preview)).toContain("node gen.js > src/gen.ts");
		const explained = await runCli(sb, ["explain", "touch other.ts"]);
		expect(explained.stdout).toContain(
			"asked because: the write tier asks (built-in default) for: touch other.ts",
		);
		const generator = await runCli(sb, ["explain", "node gen.js"]);
		expect(generator.stdout).toContain("for: node gen.js (writes src/gen.ts)");
	});
});
