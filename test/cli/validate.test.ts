/** `validate`: every problem with its JSON path and line, the project schema, and the gate agreeing with it. */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
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

const reportSchema = z.object({
	file: z.string(),
	scope: z.enum(["user", "project", "managed"]),
	valid: z.boolean(),
	problems: z.array(
		z.object({
			json_path: z.string(),
			line: z.number().nullable(),
			column: z.number().nullable(),
			problem: z.string(),
		}),
	),
	warnings: z.array(z.object({ json_path: z.string(), line: z.number().nullable(), warning: z.string() })),
});

const INVALID = `{
	// three mistakes
	"rules": [
		{ "surface": "command", "pattern": "rm *", "action": "nope" },
		{ "surface": "command", "pattern": "ls", "action": "allow", "reasn": "typo" }
	],
	"tiers": { "write": "sometimes" }
}
`;

describe("validate", () => {
	it("--managed checks the managed config with its own schema: the user's own keys are errors there", async () => {
		const sb = await cliSandbox();
		const managed = path.join(sb.root, "etc", "managed.json");
		mkdirSync(path.dirname(managed), { recursive: true });
		writeFileSync(managed, `{ "allowedModes": ["default", "plan"], "defaultMode": "trusted" }\n`);
		const env = { PI_PERMISSION_HUB_MANAGED_CONFIG: managed };

		const { code, json } = await runCliJson(sb, ["validate", "--managed"], { env });
		expect(code).toBe(1);
		const report = reportSchema.parse(json);
		expect(report).toMatchObject({ file: managed, scope: "managed", valid: false });
		expect(report.problems.map((p) => p.json_path)).toEqual(["defaultMode"]);

		writeFileSync(managed, `{ "allowedModes": ["default", "plan"], "allowSavedRules": false }\n`);
		const fixed = await runCli(sb, ["validate", "--managed"], { env });
		expect(fixed.code).toBe(0);
		expect(fixed.stdout).toContain(`${managed} is a valid managed config`);
		const both = await runCli(sb, ["validate", "--managed", "--project", "."], { env });
		expect(both.code).toBe(1);
		expect(both.stderr).toContain("give one of a FILE, --project DIR or --managed");
	});

	it("accepts a valid file (exit 0) and reports warnings", async () => {
		const sb = await cliSandbox();
		const file = await sb.writeWorkFile(
			"config.json",
			'{\n\t"rules": [\n\t\t{ "surface": "command", "pattern": "rm *", "action": "allow" }, // trailing comma ok\n\t],\n}\n',
		);
		const { code, json } = await runCliJson(sb, ["validate", "config.json"]);
		expect(code).toBe(0);
		const report = reportSchema.parse(json);
		expect(report).toMatchObject({ file, scope: "user", valid: true, problems: [] });
		expect(report.warnings).toEqual([
			expect.objectContaining({
				json_path: "rules[0]",
				line: 3,
				warning: expect.stringContaining("above the grant ceiling"),
			}),
		]);
		const text = await runCli(sb, ["validate", file]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain(`${file} is a valid user config (1 warning).`);
		expect(text.stdout).toContain("warning line 3, rules[0]: allow command");
	});

	it("lists every problem with JSON path and line (exit 1), and the gate names the same first one", async () => {
		const sb = await cliSandbox();
		const config = await sb.writeAgentFile(path.join("pi-permission-hub", "config.json"), INVALID);
		const { code, json } = await runCliJson(sb, ["validate"]);
		expect(code).toBe(1);
		expect(json).toMatchObject({ ok: false, error: { kind: "invalid" } });
		const report = reportSchema.parse(json);
		expect(report.file).toBe(config);
		expect(report.problems.map((p) => [p.json_path, p.line, p.column])).toEqual([
			["rules[0].action", 4, 46],
			["rules[1].reasn", 5, 63],
			["tiers.write", 7, 13],
		]);
		expect(report.problems[1]?.problem).toBe('unknown key "reasn"');

		const text = await runCli(sb, ["validate"]);
		expect(text.code).toBe(1);
		expect(text.stdout).toContain(`${config} is not a valid user config: 3 problems.`);
		expect(text.stdout).toContain('  line 5, column 63, rules[1].reasn: unknown key "reasn"');
		// One line per problem, after the one that says how many: nothing repeated on stderr.
		expect(text.stdout.trim().split("\n")).toHaveLength(4);
		expect(text.stderr).toBe("");

		const run = await piRun(sb, [bash("ls")]);
		expect(run.toolResults[0]?.text).toContain(
			`config error in ${config} at rules[0].action (line 4, column 46)`,
		);
	});

	it("reports a JSONC syntax error where it is, inside the element it is in", async () => {
		const sb = await cliSandbox();
		await sb.writeWorkFile(
			"broken.json",
			'{\n\t"rules": [\n\t\t{ "surface": "command", "pattern": "ls", "action": "allow" }\n\t\t{ "surface": "command", "pattern": "pwd", "action": "allow" }\n\t]\n}\n',
		);
		const { code, json } = await runCliJson(sb, ["validate", "broken.json"]);
		expect(code).toBe(1);
		expect(reportSchema.parse(json).problems).toEqual([
			{
				json_path: "rules[0]",
				line: 3,
				column: 63,
				problem: "JSONC syntax error: a comma is missing after this",
			},
		]);
		const text = await runCli(sb, ["validate", "broken.json"]);
		expect(text.stdout).toContain(
			"  line 3, column 63, rules[0]: JSONC syntax error: a comma is missing after this",
		);
		expect(text.stderr).toBe("");
	});

	it("checks a project file with the project schema", async () => {
		const sb = await cliSandbox();
		const content = JSON.stringify(
			{ grantCeiling: { tier: "destructive", reason: "CI box" }, authorizerChain: ["x"] },
			null,
			"\t",
		);
		const projectFile = await sb.writeWorkFile(".pi/pi-permission-hub.json", content);
		const project = await runCliJson(sb, ["validate", "--project", sb.workDir]);
		expect(project.code).toBe(1);
		const report = reportSchema.parse(project.json);
		expect(report).toMatchObject({ file: projectFile, scope: "project", valid: false });
		expect(report.problems.map((p) => p.json_path).sort()).toEqual(["authorizerChain", "grantCeiling"]);
		expect(report.problems[0]?.problem).toContain("only the user-level config");
		// The same content is a valid user config.
		expect((await runCliJson(sb, ["validate", projectFile])).code).toBe(0);
	});

	it("no policy yet is exit 0 and says the defaults apply, with the directory ready for one", async () => {
		const sb = await cliSandbox();
		const file = path.join(sb.agentDir, "pi-permission-hub", "config.json");
		const none = await runCli(sb, ["validate"]);
		expect(none.code).toBe(0);
		expect(none.stdout.trim()).toBe(
			`pi-permission-hub validate: ${file}: no policy yet: the defaults apply (reads run, everything else asks); write your rules there.`,
		);
		// The first policy can be written at once: no `mkdir -p` first.
		expect(statSync(path.dirname(file)).isDirectory()).toBe(true);
		const json = await runCliJson(sb, ["validate"]);
		expect(json.code).toBe(0);
		expect(json.json).toMatchObject({ ok: true, file, scope: "user", valid: true, missing: true });
		const project = await runCli(sb, ["validate", "--project", sb.workDir]);
		expect(project.code).toBe(0);
		expect(project.stdout).toContain("no project policy: this project tightens nothing");
	});

	it("a FILE that does not exist or a file that cannot be read is exit 2; FILE with --project is a usage error", async () => {
		const sb = await cliSandbox();
		const missing = await runCliJson(sb, ["validate", "nowhere.json"]);
		expect(missing.code).toBe(2);
		expect(missing.json).toMatchObject({ ok: false, error: { kind: "io" } });
		expect(missing.json.error?.message).toContain("no such file");
		mkdirSync(sb.workPath("adir"));
		expect((await runCli(sb, ["validate", "adir"])).code).toBe(2);
		// A FIFO (a repository can ship one as its project config) is refused at once, never waited on.
		execFileSync("mkfifo", [sb.workPath("pipe.json")]);
		const fifo = await runCliJson(sb, ["validate", "pipe.json"]);
		expect(fifo.code).toBe(2);
		expect(fifo.json.error?.message).toContain("is not a regular file");
		const both = await runCliJson(sb, ["validate", "x.json", "--project", "."]);
		expect(both.code).toBe(1);
		expect(both.json.error?.kind).toBe("usage");
	});

	it("a dangling link as the config, or a file where its directory should be, is unreadable, not missing", async () => {
		const sb = await cliSandbox();
		const file = path.join(sb.agentDir, "pi-permission-hub", "config.json");
		mkdirSync(path.dirname(file));
		symlinkSync(path.join(sb.home, "dotfiles", "hub.json"), file);
		const dangling = await runCliJson(sb, ["validate"]);
		expect(dangling.code).toBe(2);
		expect(dangling.json.error?.message).toBe(
			`cannot read ${file}: ${file} is a symbolic link to ${path.join(sb.home, "dotfiles", "hub.json")}, which does not exist`,
		);
		rmSync(path.dirname(file), { recursive: true });
		writeFileSync(path.dirname(file), "");
		const fileAsDir = await runCliJson(sb, ["validate"]);
		expect(fileAsDir.code).toBe(2);
		expect(fileAsDir.json.error?.message).toContain(`${path.dirname(file)} is not a directory`);
	});

	it("a config nested 100 000 levels deep is an invalid config with its place, not a crash", async () => {
		const sb = await cliSandbox();
		await sb.writeAgentFile(
			"pi-permission-hub/config.json",
			`{"rules":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
		);
		const run = await runCliJson(sb, ["validate"]);
		expect(run.code).toBe(1);
		expect(run.json).toMatchObject({ ok: false, error: { kind: "invalid" } });
		const report = reportSchema.parse(run.json);
		expect(report.problems).toEqual([
			{
				json_path: "",
				line: 1,
				column: 73,
				problem: "values nest deeper than 64 levels; a config needs a handful",
			},
		]);
	});
});
