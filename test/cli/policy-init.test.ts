/**
 * `policy init` over origins a real gate recorded: every entry commented out, the same bytes on every run, no
 * overwrite without --force, and a scaffold that is a valid config whose uncommented lines the gate enforces.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	assertCliBuilt,
	auditLogPath,
	bash,
	cleanupCliSandboxes,
	cliSandbox,
	piRun,
	runCli,
	runCliJson,
	waitForAuditLines,
} from "./cli-support.ts";

beforeAll(assertCliBuilt);
afterEach(cleanupCliSandboxes);

const ENTRY_LINE = /^\t\t\t\/\/ \{ "kind": /;

function scaffoldPath(agentDir: string): string {
	return path.join(agentDir, "pi-permission-hub", "agent-rules.example.jsonc");
}

describe("policy init", () => {
	it("scaffolds every observed origin, commented out, byte for byte the same on every run", async () => {
		const sb = await cliSandbox();
		await piRun(sb, [bash("ls")]);
		await piRun(sb, [bash("ls")], { GITHUB_ACTIONS: "true" });
		await piRun(sb, [bash("ls")], { PI_SUBAGENT_CHILD: "1", PI_SUBAGENT_NAME: "worker" });
		await waitForAuditLines(auditLogPath(sb), 3);

		const first = await runCli(sb, ["policy", "init"]);
		expect(first.code).toBe(0);
		const file = scaffoldPath(sb.agentDir);
		expect(first.stdout).toContain(`wrote ${file} (3 origins from ${auditLogPath(sb)})`);
		const text = readFileSync(file, "utf8");
		const entryLines = text.split("\n").filter((line) => line.includes('"kind"'));
		expect(entryLines).toHaveLength(10);
		expect(entryLines.every((line) => ENTRY_LINE.test(line))).toBe(true);
		const allow = text.slice(text.indexOf('"allow": ['), text.indexOf('"deny": ['));
		expect(allow.split("\n").filter((l) => ENTRY_LINE.test(l))).toEqual([
			'\t\t\t// { "kind": "subagent" }, // every subagent, whatever its name: 1 decision',
			'\t\t\t// { "kind": "subagent", "name": "worker" }, // 1 decision',
			'\t\t\t// { "kind": "headless" }, // 1 decision',
			'\t\t\t// { "kind": "ci" }, // every ci, whatever its name: 1 decision',
			'\t\t\t// { "kind": "ci", "name": "github-actions" }, // 1 decision',
		]);
		expect(text).toContain("It is NOT a bypass");
		expect(text).not.toMatch(/\d{4}-\d\d-\d\dT/);
		expect(text).not.toContain(sb.root);

		const printed = await runCli(sb, ["policy", "init", "--out", "-"]);
		expect(printed.code).toBe(0);
		expect(printed.stdout).toBe(text);
		const other = path.join(sb.root, "other.jsonc");
		expect((await runCli(sb, ["policy", "init", "--out", other])).code).toBe(0);
		expect(readFileSync(other, "utf8")).toBe(text);

		const json = await runCliJson(sb, ["policy", "init", "--out", "-"]);
		expect(json.json).toMatchObject({
			command: "policy init",
			ok: true,
			written: false,
			path: null,
			content: text,
			origins: [
				{ kind: "subagent", name: "worker", decisions: 1 },
				{ kind: "headless", name: null, decisions: 1 },
				{ kind: "ci", name: "github-actions", decisions: 1 },
			],
		});

		// As it is, the scaffold is a valid config that changes nothing.
		const valid = await runCliJson(sb, ["validate", file]);
		expect(valid.json).toMatchObject({ ok: true, valid: true, problems: [] });
	});

	it("never overwrites an existing file without --force", async () => {
		const sb = await cliSandbox();
		const file = scaffoldPath(sb.agentDir);
		expect((await runCli(sb, ["policy", "init"])).code).toBe(0);
		const scaffold = readFileSync(file, "utf8");
		writeFileSync(file, "my own edits\n");

		const refused = await runCli(sb, ["policy", "init"]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain(`${file} already exists; pass --force to overwrite it`);
		expect(readFileSync(file, "utf8")).toBe("my own edits\n");
		const refusedJson = await runCliJson(sb, ["policy", "init"]);
		expect(refusedJson.json).toMatchObject({ ok: false, error: { kind: "exists" } });

		expect((await runCli(sb, ["policy", "init", "--force"])).code).toBe(0);
		expect(readFileSync(file, "utf8")).toBe(scaffold);
	});

	it("a missing log still gives a header-only template", async () => {
		const sb = await cliSandbox();
		expect(existsSync(auditLogPath(sb))).toBe(false);
		const run = await runCli(sb, ["policy", "init", "--out", "-"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("No origins were found in the audit log");
		expect(run.stdout).not.toMatch(ENTRY_LINE);
		expect(run.stdout).toContain('"allow": [');
		const out = path.join(sb.root, "empty.jsonc");
		expect((await runCli(sb, ["policy", "init", "--out", out])).code).toBe(0);
		expect((await runCliJson(sb, ["validate", out])).json).toMatchObject({ valid: true });
	});

	it("leaves out names no rule could match, and says so", async () => {
		const sb = await cliSandbox();
		const line = (name: string) =>
			JSON.stringify({
				v: 1,
				time: "2025-01-01T00:00:00.000Z",
				sessionId: "s",
				event: "tool_call",
				origin: { kind: "subagent", name, depth: 1, path: ["root", name] },
				tool: "read",
				tier: "read",
				actionHash: "a".repeat(64),
				preview: "read x",
				mode: "auto",
				outcome: "allow",
				source: { kind: "unavailable", reason: "test" },
				latencyMs: 0,
				configFiles: [],
			});
		const log = path.join(sb.root, "names.jsonl");
		writeFileSync(log, `${line("planner")}\n${line("evil\u202ereversed")}\n${line(" padded")}\n`);
		const { json } = await runCliJson(sb, ["policy", "init", "--out", "-", "--log", log]);
		expect(json).toMatchObject({ origins: [{ kind: "subagent", name: "planner" }], skipped_origin_lines: 2 });
	});
});

describe("the scaffold is real policy", () => {
	it("uncommenting its headless deny line makes the gate refuse the next headless call", async () => {
		const sb = await cliSandbox();
		await piRun(sb, [bash("ls")]);
		await waitForAuditLines(auditLogPath(sb), 1);
		const { json } = await runCliJson(sb, ["policy", "init", "--out", "-"]);
		const content = String(json.content);
		const denyAt = content.indexOf('"deny": [');
		const edited =
			content.slice(0, denyAt) +
			content.slice(denyAt).replace('\t\t\t// { "kind": "headless" },', '\t\t\t{ "kind": "headless" },');
		const config = await sb.writeAgentFile(path.join("pi-permission-hub", "config.json"), edited);
		expect((await runCliJson(sb, ["validate"])).json).toMatchObject({ file: config, valid: true });

		const run = await piRun(sb, [bash("ls")]);
		expect(run.toolResults[0]?.isError).toBe(true);
		expect(run.toolResults[0]?.text).toContain(`comes from headless, which agentRules.deny in ${config}`);
	});
});
