import { describe, expect, it } from "vitest";
import type { ConfigScope } from "../../src/policy/config-schema.ts";
import {
	type InvalidConfig,
	MAX_CONFIG_BYTES,
	MAX_CONFIG_DEPTH,
	parseConfigText,
} from "../../src/policy/parse-config-text.ts";

const FILE = "/cfg/config.json";

function invalid(text: string, scope: ConfigScope = "user"): InvalidConfig {
	const result = parseConfigText(text, FILE, scope);
	if (result.status !== "invalid")
		throw new Error(`expected an invalid config, got ${JSON.stringify(result)}`);
	return result;
}

function issues(
	text: string,
	scope: ConfigScope = "user",
): { jsonPath: string; line: number | null; column?: number; problem: string }[] {
	return invalid(text, scope).error.issues.map((i) => ({ ...i }));
}

describe("parsing config text", () => {
	it("accepts JSONC: comments and trailing commas", () => {
		const result = parseConfigText(
			`{
  // the team's policy
  "rules": [
    { "surface": "command", "pattern": "git status", "action": "allow", }, /* trailing comma above */
  ],
  "tiers": { "spend": "deny", },
}`,
			FILE,
			"user",
		);
		expect(result.status).toBe("loaded");
		if (result.status !== "loaded") return;
		expect(result.config.rules?.[0]?.pattern).toBe("git status");
		expect(result.lineOf(["rules", 0])).toBe(4);
		expect(result.lineOf(["tiers", "spend"])).toBe(6);
	});

	it("accepts every field of the user schema", () => {
		const result = parseConfigText(
			JSON.stringify({
				$schema: "./schema.json",
				rules: [{ surface: "outside-cwd", pattern: "/tmp/**", action: "ask", reason: "tmp is shared" }],
				tiers: { read: "ask", destructive: "deny" },
				commandTiers: [{ pattern: "make deploy *", tier: "spend" }],
				toolTiers: { web_fetch: "network-egress" },
				agentRules: {
					allow: [{ kind: "human" }, { kind: "subagent", name: "planner" }],
					deny: [{ kind: "ci" }],
				},
				authorizerChain: ["corp-policy"],
				unanswered: "defer",
				dialogTimeoutSeconds: 60,
				deferExpiryHours: 0.5,
				grantCeiling: { tier: "network-egress", reason: "we push a lot" },
			}),
			FILE,
			"user",
		);
		expect(result.status).toBe("loaded");
	});

	it("names the exact path and line of a bad enum value, with what was found", () => {
		const text = `{
  "rules": [
    { "surface": "tool", "pattern": "read", "action": "allow" },
    { "surface": "tool", "pattern": "bash", "action": "allow" },
    { "surface": "tool", "pattern": "edit",
      "action": "alow" }
  ]
}`;
		const error = invalid(text).error;
		expect(error.jsonPath).toBe("rules[2].action");
		expect(error.line).toBe(6);
		expect(error.column).toBe(7);
		expect(error.problem).toBe('must be one of "allow", "ask", "deny" (got "alow")');
		expect(error.message).toBe(
			`config error in ${FILE} at rules[2].action (line 6, column 7): must be one of "allow", "ask", "deny" (got "alow")`,
		);
	});

	it("reports unknown keys at the key itself (typos are errors)", () => {
		const text = `{
  "rules": [
    { "surface": "tool", "pattern": "x", "acton": "deny" }
  ],
  "unanswerd": "deny"
}`;
		expect(issues(text)).toEqual([
			{ jsonPath: "rules[0].action", line: 3, column: 5, problem: 'missing required key "action"' },
			{ jsonPath: "rules[0].acton", line: 3, column: 42, problem: 'unknown key "acton"' },
			{ jsonPath: "unanswerd", line: 5, column: 3, problem: 'unknown key "unanswerd"' },
		]);
		expect(invalid(text).error.message).toMatch(/\(and 2 more problems\)$/);
	});

	it("rejects a name on an origin kind that has none", () => {
		const text = `{
  "agentRules": {
    "deny": [
      { "kind": "subagent", "name": "worker" },
      { "kind": "human", "name": "alice" }
    ]
  }
}`;
		expect(issues(text)).toEqual([
			{
				jsonPath: "agentRules.deny[1].name",
				line: 5,
				column: 26,
				problem: 'a name is only allowed for kind "subagent" (the agent name) or "ci" (the provider)',
			},
		]);
		expect(issues(`{"agentRules":{"allow":[{"kind":"robot"}]}}`)[0]?.problem).toBe(
			'must be one of "human", "headless", "subagent", "ci" (got "robot")',
		);
	});

	it("rejects grantCeiling and authorizerChain in a project file, saying who may set them", () => {
		const text = `{
  "authorizerChain": ["x"],
  "grantCeiling": { "tier": "destructive", "reason": "r" }
}`;
		expect(parseConfigText(text, FILE, "user").status).toBe("loaded");
		const found = issues(text, "project");
		expect(found.map((i) => [i.jsonPath, i.line])).toEqual([
			["authorizerChain", 2],
			["grantCeiling", 3],
		]);
		expect(found[0]?.problem).toMatch(/only the user-level config .* may set authorizerChain/);
		expect(found[1]?.problem).toMatch(/only the user-level config .* may set grantCeiling/);
	});

	it("takes notify from the user file only: a terminal preference, not the repository's", () => {
		expect(parseConfigText(`{"notify": "osc777"}`, FILE, "user").status).toBe("loaded");
		expect(issues(`{"notify": "osc777"}`, "project")[0]?.problem).toMatch(
			/only the user-level config .* may set notify/,
		);
		expect(issues(`{"notify": "beep"}`)[0]).toMatchObject({
			jsonPath: "notify",
			problem: expect.stringContaining('must be one of "bell", "osc9", "osc777", "off"'),
		});
	});

	it("validates numbers, strings and record keys", () => {
		expect(issues(`{"dialogTimeoutSeconds": 1.5}`)[0]).toEqual({
			jsonPath: "dialogTimeoutSeconds",
			line: 1,
			column: 2,
			problem: "expected an integer, got a fractional number (1.5)",
		});
		expect(issues(`{"deferExpiryHours": 0}`)[0]?.problem).toBe("must be greater than 0");
		expect(issues(`{"rules": [{"surface":"command","pattern":"","action":"deny"}]}`)[0]).toMatchObject({
			jsonPath: "rules[0].pattern",
			problem: "must not be empty",
		});
		expect(
			issues(
				`{"rules": [{"surface":"command","pattern":"x","action":"deny","reason":"${"r".repeat(501)}"}]}`,
			)[0]?.problem,
		).toBe("must be at most 500 characters");
		expect(issues(`{"grantCeiling": {"tier": "spend", "reason": "   "}}`)[0]).toMatchObject({
			jsonPath: "grantCeiling.reason",
			problem: "must say why the ceiling is raised",
		});
		expect(issues(`{"toolTiers": {"my-tool": "loud"}}`)[0]).toMatchObject({
			jsonPath: 'toolTiers["my-tool"]',
		});
		expect(issues(`{"rules": {}}`)[0]?.problem).toBe("expected an array, got an object");
		expect(issues(`[]`)[0]).toEqual({
			jsonPath: "",
			line: 1,
			column: 1,
			problem: "expected an object, got an array",
		});
	});

	describe("syntax errors, where a person fixes them, in the element they are in", () => {
		const syntax = (text: string) =>
			issues(text).map((i) => `${i.jsonPath} ${i.line}:${i.column} ${i.problem}`);

		it("a missing comma between two rules: at the end of the first, not on the next line", () => {
			const text = `{
  "rules": [
    { "surface": "command", "pattern": "ls", "action": "allow" },
    { "surface": "command", "pattern": "pwd", "action": "allow" }
    { "surface": "command", "pattern": "id", "action": "allow" }
  ]
}`;
			expect(syntax(text)).toEqual(["rules[1] 4:66 JSONC syntax error: a comma is missing after this"]);
			expect(invalid(text).error.message).toBe(
				`config error in ${FILE} at rules[1] (line 4, column 66): JSONC syntax error: a comma is missing after this`,
			);
		});

		it("a missing comma between two keys, with a comment in between", () => {
			expect(
				syntax(`{ "rules": [ { "surface": "write" // the kind
  "pattern": "x", "action": "deny" } ] }`),
			).toEqual(["rules[0].surface 1:34 JSONC syntax error: a comma is missing after this"]);
		});

		it("a missing colon, a missing value, a key without quotes", () => {
			expect(
				syntax(`{
  "tiers" { "write": "ask" }
}`)[0],
			).toBe("tiers 2:10 JSONC syntax error: a colon is missing after this key");
			expect(
				syntax(`{
  "rules": [
    { "surface": }
  ]
}`),
			).toEqual(["rules[0].surface 3:17 JSONC syntax error: a value is missing here"]);
			expect(syntax(`{ tiers: {} }`)[0]).toBe(
				" 1:3 JSONC syntax error: this is not JSON (a stray character or an unquoted word)",
			);
		});

		it("an unclosed list and object at the end of the file: each at the end, naming the element left open", () => {
			expect(
				syntax(`{
  "rules": [
    { "surface": "tool", "pattern": "x", "action": "deny" }
`),
			).toEqual([
				"rules 3:60 JSONC syntax error: a list is not closed: a ] is missing",
				" 3:60 JSONC syntax error: an object is not closed: a } is missing",
			]);
		});

		it("text after the end, an unclosed string, a stray word", () => {
			expect(
				syntax(`{ "tiers": {} }
x`),
			).toEqual([" 2:1 JSONC syntax error: this is not JSON (a stray character or an unquoted word)"]);
			expect(syntax(`{ "unanswered": "deny }`)[0]).toBe(
				'unanswered 1:17 JSONC syntax error: a string is not closed: a " is missing',
			);
			expect(syntax(`{ "unanswered": deny }`)[0]).toBe(
				"unanswered 1:17 JSONC syntax error: this is not JSON (a stray character or an unquoted word)",
			);
		});
	});

	it("rejects a file with no JSON value, duplicate keys and oversized files", () => {
		expect(invalid("// nothing but a comment\n").error.problem).toMatch(/holds no JSON value/);
		expect(invalid("").error.problem).toMatch(/JSONC syntax error|holds no JSON value/);
		expect(issues(`{\n  "tiers": {\n    "write": "deny",\n    "write": "auto"\n  }\n}`)).toEqual([
			{ jsonPath: "tiers.write", line: 4, column: 5, problem: 'duplicate key "write"' },
		]);
		expect(invalid(`{"$schema": "${"x".repeat(MAX_CONFIG_BYTES)}"}`).error.problem).toMatch(/larger than/);
	});

	it("rejects nesting past the limit before the recursive parser sees it, and counts only real brackets", () => {
		const deep = `{"rules": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
		expect(issues(deep)).toEqual([
			{
				jsonPath: "",
				line: 1,
				column: 10 + MAX_CONFIG_DEPTH,
				problem: `values nest deeper than ${MAX_CONFIG_DEPTH} levels; a config needs a handful`,
			},
		]);
		// Brackets inside strings and comments are text, not nesting.
		const quoted = `{ // ${"[".repeat(200)}\n "$schema": "${"{".repeat(200)}" }`;
		expect(parseConfigText(quoted, FILE, "user").status).toBe("loaded");
	});
});
