/**
 * `agent allow` / `agent deny`: matchers checked like the config loader checks them, a snippet that is real
 * policy when pasted (the gate enforces it), and no config file touched.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
	assertCliBuilt,
	bash,
	cleanupCliSandboxes,
	cliSandbox,
	piRun,
	runCli,
	runCliJson,
} from "./cli-support.ts";

beforeAll(assertCliBuilt);
afterEach(cleanupCliSandboxes);

const snippetSchema = z.object({
	list: z.string(),
	entry: z.string(),
	snippet: z.string(),
	matcher: z.unknown(),
});

describe("valid matchers", () => {
	it("prints the entry and its place for every kind, with and without a name, and edits nothing", async () => {
		const sb = await cliSandbox();
		const config = path.join(sb.agentDir, "pi-permission-hub", "config.json");
		const cases = [
			[["--kind", "human"], { kind: "human" }],
			[["--kind", "headless"], { kind: "headless" }],
			[["--kind", "subagent"], { kind: "subagent" }],
			[["--kind", "subagent", "--name", "worker"], { kind: "subagent", name: "worker" }],
			[["--kind", "ci"], { kind: "ci" }],
			[["--kind", "ci", "--name", "github-actions"], { kind: "ci", name: "github-actions" }],
		] as const;
		for (const list of ["allow", "deny"] as const) {
			for (const [args, matcher] of cases) {
				const { code, json } = await runCliJson(sb, ["agent", list, ...args]);
				expect(code).toBe(0);
				const result = snippetSchema.parse(json);
				expect(json).toMatchObject({ command: `agent ${list}`, ok: true, list, matcher });
				expect(JSON.parse(result.entry)).toEqual(matcher);
				expect(JSON.parse(result.snippet)).toEqual({ agentRules: { [list]: [matcher] } });
			}
		}
		const allow = await runCli(sb, ["agent", "allow", "--kind", "subagent", "--name", "worker"]);
		expect(allow.stdout).toContain('    { "kind": "subagent", "name": "worker" }');
		expect(allow.stdout).toContain(config);
		expect(allow.stdout).toContain("allow is not a bypass");
		const deny = await runCli(sb, ["agent", "deny", "--kind", "ci"]);
		expect(deny.stdout).toContain("every tool call from a matching origin is refused");
		expect(existsSync(config)).toBe(false);
	});
});

describe("invalid matchers", () => {
	it("are refused with exit code 1 and a reason", async () => {
		const sb = await cliSandbox();
		const cases: readonly (readonly [readonly string[], string])[] = [
			[[], "--kind is required: one of human, subagent, headless, ci"],
			[["--kind", "robot"], '--kind must be one of human, subagent, headless, ci (got "robot")'],
			[["--kind", "human", "--name", "alice"], "--name is not allowed with --kind human"],
			[["--kind", "headless", "--name", "x"], "--name is not allowed with --kind headless"],
			[["--kind", "subagent", "--name", ""], "--name must not be empty"],
			[["--kind", "subagent", "--name", "evil\u202eliam"], "could never match"],
			[["--kind", "ci", "--name", " padded"], "could never match"],
			[
				["--kind", "subagent", "--name", "w".repeat(201)],
				"invalid matcher (name): must be at most 200 characters",
			],
			[["--kind", "subagent", "--kind"], "--kind"],
			[["--kind", "subagent", "extra"], 'unexpected argument "extra"'],
			[["--kind", "subagent", "--tool", "x"], "Unknown option '--tool'"],
		];
		for (const [args, message] of cases) {
			for (const list of ["allow", "deny"]) {
				const text = await runCli(sb, ["agent", list, ...args]);
				expect(text.code, `${list} ${args.join(" ")}`).toBe(1);
				expect(text.stdout).toBe("");
				expect(text.stderr).toContain(message);
			}
			const { code, json } = await runCliJson(sb, ["agent", "deny", ...args]);
			expect(code).toBe(1);
			expect(json).toMatchObject({ ok: false, error: { kind: "usage" } });
		}
	});
});

describe("pasted snippets are enforced by the gate", () => {
	it("a deny snippet refuses every headless call; an allow snippet is not a bypass", async () => {
		const sb = await cliSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		const deny = snippetSchema.parse((await runCliJson(sb, ["agent", "deny", "--kind", "headless"])).json);
		const config = await sb.writeAgentFile(path.join("pi-permission-hub", "config.json"), deny.snippet);
		const denied = await piRun(sb, [bash("ls")]);
		expect(denied.toolResults[0]?.isError).toBe(true);
		expect(denied.toolResults[0]?.text).toContain(`comes from headless, which agentRules.deny in ${config}`);

		const allow = snippetSchema.parse((await runCliJson(sb, ["agent", "allow", "--kind", "headless"])).json);
		await sb.writeAgentFile(path.join("pi-permission-hub", "config.json"), allow.snippet);
		const allowed = await piRun(sb, [bash("ls"), bash("rm -f victim.txt")]);
		const results = allowed.toolResults.map((r) => r.isError);
		expect(results.sort()).toEqual([false, true]);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
	});
});
