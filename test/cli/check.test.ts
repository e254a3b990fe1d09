/** `check`: the gate's classifier and policy answer "would this run?" without pi, for one call or a stream. */
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	assertCliBuilt,
	type CliOptions,
	cleanupCliSandboxes,
	cliSandbox,
	envelopeOf,
	runCli,
} from "./cli-support.ts";

/** `check … --format json -- COMMAND`: the format goes before `--`, after which every word is the command's. */
async function runCliJson(sb: Sandbox, args: readonly string[], options?: CliOptions) {
	const end = args.indexOf("--");
	const withFormat =
		end < 0 ? [...args, "--format", "json"] : [...args.slice(0, end), "--format", "json", ...args.slice(end)];
	const run = await runCli(sb, withFormat, options);
	return { code: run.code, json: envelopeOf(run) };
}

beforeAll(assertCliBuilt);
afterEach(cleanupCliSandboxes);

const resultSchema = z.looseObject({
	tool: z.string(),
	preview: z.string(),
	tier: z.string(),
	mode: z.enum(["auto", "ask", "deny"]),
	basis: z.looseObject({ kind: z.string(), text: z.string() }),
	human_only: z.boolean(),
	grantable: z.boolean(),
	not_read: z.array(z.object({ text: z.string(), reason: z.string() })),
	parts: z.array(z.looseObject({ paths: z.array(z.object({ access: z.string(), path: z.string() })) })),
});
const checkSchema = z.looseObject({ result: resultSchema });
const lineSchema = z.union([
	resultSchema.extend({ line: z.number(), ok: z.literal(true) }),
	z.object({ line: z.number(), ok: z.literal(false), error: z.string() }),
]);

describe("check", () => {
	it("plain reads run without asking; anything else asks, with the word that is not proven read", async () => {
		const sb = await cliSandbox();
		for (const command of ["ls -la", "git log --oneline -5", "head -1 f | wc -l", "sed -n '1,5p' f"]) {
			const { code, json } = await runCliJson(sb, ["check", "--", command]);
			expect(code).toBe(0);
			expect(checkSchema.parse(json).result).toMatchObject({ tier: "read", mode: "auto", not_read: [] });
		}
		const abbreviated = checkSchema.parse(
			(await runCliJson(sb, ["check", "--", "sed --in-pl s/a/b/ f"])).json,
		);
		expect(abbreviated.result).toMatchObject({ tier: "write", mode: "ask", grantable: true });
		expect(abbreviated.result.not_read[0]?.reason).toBe(
			"`--in-pl` abbreviates `--in-place`; only full option names are proven read-only",
		);
		// Several words after -- are joined by spaces, as `bash -c "$*"` would see them.
		const words = checkSchema.parse((await runCliJson(sb, ["check", "--", "ls", "$x"])).json);
		expect(words.result).toMatchObject({ preview: "ls $x", mode: "ask" });
		expect(words.result.not_read[0]?.reason).toBe(
			"`$x` is expanded at run time and could become an option of ls",
		);

		const text = await runCli(sb, ["check", "--", "rm -rf build"]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain(
			"pi-permission-hub check: bash rm -rf build: asks first (ask), tier destructive",
		);
		expect(text.stdout).toContain("basis: the destructive tier is set to ask in the built-in defaults");
		expect(text.stdout).toContain("not read: rm -rf build: built-in: rm is destructive");
	});

	it("names the rule that decides, with its file and line, and what the project config adds unless untrusted", async () => {
		const sb = await cliSandbox();
		const user = await sb.writeAgentFile(
			"pi-permission-hub/config.json",
			'{\n  "rules": [\n    { "surface": "command", "pattern": "npm test", "action": "allow" }\n  ]\n}\n',
		);
		await sb.writeWorkFile(
			".pi/pi-permission-hub.json",
			'{ "rules": [ { "surface": "command", "pattern": "git status", "action": "deny", "reason": "ours" } ] }',
		);
		const allowed = checkSchema.parse((await runCliJson(sb, ["check", "--", "npm test"])).json);
		expect(allowed.result).toMatchObject({ mode: "auto", tier: "write" });
		expect(allowed.result.basis.text).toBe(`allow rule command "npm test" in ${user} (rules[0], line 3)`);
		const denied = checkSchema.parse((await runCliJson(sb, ["check", "--", "git status"])).json);
		expect(denied.result).toMatchObject({ mode: "deny", basis: { kind: "rule" } });
		const untrusted = checkSchema.parse(
			(await runCliJson(sb, ["check", "--untrusted", "--", "git status"])).json,
		);
		expect(untrusted.result.mode).toBe("auto");
		// Another working directory has another project config (here none).
		mkdirSync(sb.workPath("elsewhere"));
		const elsewhere = await runCliJson(sb, ["check", "--cwd", "elsewhere", "--", "git status"]);
		expect(checkSchema.parse(elsewhere.json).result.mode).toBe("auto");
	});

	it("the gate's own files ask a human only, through any tool; other tools take their input as JSON", async () => {
		const sb = await cliSandbox();
		const config = path.join(sb.agentDir, "pi-permission-hub", "config.json");
		const write = await runCliJson(sb, [
			"check",
			"--tool",
			"write",
			"--",
			JSON.stringify({ path: config, content: "{}" }),
		]);
		expect(checkSchema.parse(write.json).result).toMatchObject({
			tier: "privileged",
			mode: "ask",
			human_only: true,
			grantable: false,
			basis: { kind: "guard" },
		});
		const redirect = await runCliJson(sb, [
			"check",
			"--",
			"echo '{}' > ~/.pi/agent/pi-permission-hub/config.json",
		]);
		expect(checkSchema.parse(redirect.json).result).toMatchObject({ human_only: true, mode: "ask" });
		const notJson = await runCliJson(sb, ["check", "--tool", "write", "--", "{path"]);
		expect(notJson.code).toBe(1);
		expect(notJson.json.error?.kind).toBe("usage");
	});

	it("an agent rule decides for the subagent it names", async () => {
		const sb = await cliSandbox();
		await sb.writeAgentFile(
			"pi-permission-hub/config.json",
			'{ "agentRules": { "deny": [ { "kind": "subagent", "name": "scout" } ] } }',
		);
		const scout = await runCliJson(sb, ["check", "--origin", "subagent:scout", "--", "ls"]);
		expect(checkSchema.parse(scout.json).result).toMatchObject({
			mode: "deny",
			basis: { kind: "agent_rule" },
		});
		const human = await runCliJson(sb, ["check", "--", "ls"]);
		expect(checkSchema.parse(human.json).result.mode).toBe("auto");
		const nameless = await runCliJson(sb, ["check", "--origin", "subagent", "--", "ls"]);
		expect(nameless.code).toBe(1);
	});

	it("an invalid, too deeply nested or dangling config denies everything and exits 2", async () => {
		const sb = await cliSandbox();
		const file = await sb.writeAgentFile(
			"pi-permission-hub/config.json",
			`{"rules":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
		);
		const deep = await runCliJson(sb, ["check", "--", "ls"]);
		expect(deep.code).toBe(2);
		expect(deep.json).toMatchObject({ ok: false, error: { kind: "config_invalid" } });
		expect(deep.json.error?.message).toContain("values nest deeper than 64 levels");
		expect(checkSchema.parse(deep.json).result).toMatchObject({
			mode: "deny",
			basis: { kind: "config_error" },
		});

		const linked = await cliSandbox();
		mkdirSync(path.join(linked.agentDir, "pi-permission-hub"));
		symlinkSync(
			path.join(linked.home, "nowhere.json"),
			path.join(linked.agentDir, "pi-permission-hub", "config.json"),
		);
		const dangling = await runCli(linked, ["check", "--", "ls"]);
		expect(dangling.code).toBe(2);
		expect(dangling.stdout).toContain("is refused (deny)");
		expect(dangling.stdout).toContain("is a symbolic link to");
		expect(file).toContain(sb.agentDir);
	});

	it("--stdin answers one JSON line per call, in order, and reports a line that is not a call without stopping", async () => {
		const sb = await cliSandbox();
		mkdirSync(sb.workPath("sub"));
		const input = [
			JSON.stringify({ command: "git status" }),
			"not json",
			JSON.stringify({ tool: "read", input: { path: "README.md" } }),
			"",
			JSON.stringify({ command: "touch x", cwd: "sub" }),
			JSON.stringify({ tool: "bash" }),
			JSON.stringify({ command: "rm -rf build" }),
		].join("\n");
		const run = await runCli(sb, ["check", "--stdin"], { stdin: `${input}\n` });
		expect(run.code).toBe(1);
		expect(run.stderr).toBe("pi-permission-hub check: 2 lines of standard input not a call\n");
		const lines = run.stdout
			.trim()
			.split("\n")
			.map((line) => lineSchema.parse(JSON.parse(line)));
		expect(lines.map((line) => [line.line, line.ok ? `${line.tier}/${line.mode}` : "error"])).toEqual([
			[1, "read/auto"],
			[2, "error"],
			[3, "read/auto"],
			[5, "write/ask"],
			[6, "error"],
			[7, "destructive/ask"],
		]);
		const touched = lines[3];
		expect(touched?.ok === true && touched.parts[0]?.paths).toEqual([
			{ access: "write", path: sb.workPath("sub/x") },
		]);
		const clean = await runCli(sb, ["check", "--stdin"], { stdin: `${JSON.stringify({ command: "ls" })}\n` });
		expect(clean.code).toBe(0);
		expect((await runCli(sb, ["check", "--stdin", "--", "ls"])).code).toBe(1);
	});
});
