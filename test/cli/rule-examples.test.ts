/**
 * Rule examples through the built CLI and real pi: `validate` lists a failing example like any other problem,
 * `check` fails on it and lists the match examples the whole policy overrules, and the gate blocks every call
 * while one fails.
 */
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	assertCliBuilt,
	bash,
	cleanupCliSandboxes,
	cliSandbox,
	envelopeOf,
	piRun,
	runCli,
	runCliJson,
} from "./cli-support.ts";

beforeAll(assertCliBuilt);
afterEach(cleanupCliSandboxes);

const CONFIG = path.join("pi-permission-hub", "config.json");

/** Line 5 holds the failing example, line 9 an allow example the grant ceiling overrules. */
const FAILING = `{
	"rules": [
		{
			"surface": "command", "pattern": "git push --force*", "action": "deny",
			"examples": { "match": ["git push --force origin main"], "notMatch": ["git push --forced-thing"] }
		},
		{
			"surface": "command", "pattern": "npm *", "action": "allow",
			"examples": { "match": ["npm test", "npm publish"] }
		}
	]
}
`;

const PASSING = FAILING.replace(', "notMatch": ["git push --forced-thing"]', "");

const validateSchema = z.looseObject({
	valid: z.boolean(),
	problems: z.array(
		z.object({
			json_path: z.string(),
			line: z.number().nullable(),
			column: z.number().nullable(),
			problem: z.string(),
		}),
	),
});

const overruledSchema = z.looseObject({
	overruled_examples: z.array(
		z.object({
			file: z.string(),
			json_path: z.string(),
			line: z.number(),
			example: z.string(),
			rule: z.object({ surface: z.string(), pattern: z.string(), action: z.string() }),
			mode: z.enum(["auto", "ask", "deny"]),
			basis: z.string(),
		}),
	),
});

const PROBLEM =
	'the deny rule command "git push --force*" matches "git push --forced-thing", an example it must not match';

/** `check --format json -- COMMAND`: the format goes before `--`. */
async function checkJson(sb: Sandbox, command: string) {
	const run = await runCli(sb, ["check", "--format", "json", "--", command]);
	return { code: run.code, json: envelopeOf(run) };
}

describe("rule examples in the CLI", () => {
	it("validate lists a failing example at its JSON path and line (exit 1), and accepts the file once it passes", async () => {
		const sb = await cliSandbox();
		const file = await sb.writeAgentFile(CONFIG, FAILING);
		const { code, json } = await runCliJson(sb, ["validate"]);
		expect(code).toBe(1);
		expect(validateSchema.parse(json).problems).toEqual([
			{ json_path: "rules[0].examples.notMatch[0]", line: 5, column: null, problem: PROBLEM },
		]);
		const text = await runCli(sb, ["validate"]);
		expect(text.code).toBe(1);
		expect(text.stdout).toBe(
			`pi-permission-hub validate: ${file} is not a valid user config: 1 problem.\n` +
				`  line 5, rules[0].examples.notMatch[0]: ${PROBLEM}\n` +
				`  warning line 7, rules[1]: allow command "npm *" can match actions above the grant ceiling (write), e.g. npm publish; those will ask instead of running\n`,
		);

		await sb.writeAgentFile(CONFIG, PASSING);
		const passing = await runCliJson(sb, ["validate"]);
		expect(passing.code).toBe(0);
		expect(validateSchema.parse(passing.json)).toMatchObject({ valid: true, problems: [] });
	});

	it("check refuses every call while an example fails (exit 2), naming the example", async () => {
		const sb = await cliSandbox();
		const file = await sb.writeAgentFile(CONFIG, FAILING);
		const { code, json } = await checkJson(sb, "ls");
		expect(code).toBe(2);
		expect(json.error).toEqual({
			kind: "config_invalid",
			message: `config error in ${file} at rules[0].examples.notMatch[0] (line 5): ${PROBLEM}; all tool calls are blocked until it is fixed`,
		});
		expect(json).toMatchObject({ result: { mode: "deny", basis: { kind: "config_error" } } });
	});

	it("check lists a match example the whole policy decides otherwise than its rule", async () => {
		const sb = await cliSandbox();
		const file = await sb.writeAgentFile(CONFIG, PASSING);
		const { code, json } = await checkJson(sb, "ls");
		// Reported, not an error: the call asked about is answered as usual.
		expect(code).toBe(0);
		expect(overruledSchema.parse(json).overruled_examples).toEqual([
			{
				file,
				json_path: "rules[1].examples.match[1]",
				line: 9,
				example: "npm publish",
				rule: { surface: "command", pattern: "npm *", action: "allow" },
				mode: "ask",
				basis: "the network-egress tier is set to ask in the built-in defaults",
			},
		]);
		const text = await runCli(sb, ["check", "--", "ls"]);
		expect(text.stdout).toContain(
			`  overruled example: ${file} (rules[1].examples.match[1], line 9): "npm publish" asks first (ask), though the allow rule command "npm *" covers it: the network-egress tier is set to ask in the built-in defaults`,
		);
		// A deny in the project file overrules the allow's other example too; an untrusted project's does not.
		await sb.writeWorkFile(
			".pi/pi-permission-hub.json",
			'{ "rules": [{ "surface": "command", "pattern": "npm test", "action": "deny" }] }',
		);
		const withProject = overruledSchema.parse((await checkJson(sb, "ls")).json).overruled_examples;
		expect(withProject.map((o) => [o.example, o.mode])).toEqual([
			["npm test", "deny"],
			["npm publish", "ask"],
		]);
		const untrusted = await runCli(sb, ["check", "--untrusted", "--format", "json", "--", "ls"]);
		expect(overruledSchema.parse(envelopeOf(untrusted)).overruled_examples.map((o) => o.example)).toEqual([
			"npm publish",
		]);
	});

	it("the gate in real pi blocks every call while an example fails, with the example in the reason", async () => {
		const sb = await cliSandbox();
		const file = await sb.writeAgentFile(CONFIG, FAILING);
		const run = await piRun(sb, [bash("ls")]);
		expect(run.toolResults).toHaveLength(1);
		expect(run.toolResults[0]?.isError).toBe(true);
		expect(run.toolResults[0]?.text).toContain(
			`config error in ${file} at rules[0].examples.notMatch[0] (line 5): ${PROBLEM}; all tool calls are blocked until it is fixed`,
		);
	});
});
