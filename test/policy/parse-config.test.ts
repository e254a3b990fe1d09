import { describe, expect, it } from "vitest";
import type { ConfigScope } from "../../src/policy/config-schema.ts";
import { type InvalidConfig, MAX_CONFIG_BYTES, parseConfigText } from "../../src/policy/parse-config-text.ts";

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
): { jsonPath: string; line: number | null; problem: string }[] {
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
		expect(error.problem).toBe('must be one of "allow", "ask", "deny" (got "alow")');
		expect(error.message).toBe(
			`config error in ${FILE} at rules[2].action (line 6): must be one of "allow", "ask", "deny" (got "alow")`,
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
			{ jsonPath: "rules[0].action", line: 3, problem: 'missing required key "action"' },
			{ jsonPath: "rules[0].acton", line: 3, problem: 'unknown key "acton"' },
			{ jsonPath: "unanswerd", line: 5, problem: 'unknown key "unanswerd"' },
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

	it("validates numbers, strings and record keys", () => {
		expect(issues(`{"dialogTimeoutSeconds": 1.5}`)[0]).toEqual({
			jsonPath: "dialogTimeoutSeconds",
			line: 1,
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
		expect(issues(`[]`)[0]).toEqual({ jsonPath: "", line: 1, problem: "expected an object, got an array" });
	});

	it("reports syntax errors with their line", () => {
		const error = invalid(`{\n  "rules": [\n    { "surface": }\n  ]\n}`).error;
		expect(error.line).toBe(3);
		expect(error.problem).toMatch(/^JSONC syntax error: value expected/);
		expect(error.message).toContain(`config error in ${FILE} at the top level (line 3)`);
	});

	it("rejects a file with no JSON value, duplicate keys and oversized files", () => {
		expect(invalid("// nothing but a comment\n").error.problem).toMatch(/holds no JSON value/);
		expect(invalid("").error.problem).toMatch(/JSONC syntax error|holds no JSON value/);
		expect(issues(`{\n  "tiers": {\n    "write": "deny",\n    "write": "auto"\n  }\n}`)).toEqual([
			{ jsonPath: "tiers.write", line: 4, problem: 'duplicate key "write"' },
		]);
		expect(invalid(`{"$schema": "${"x".repeat(MAX_CONFIG_BYTES)}"}`).error.problem).toMatch(/larger than/);
	});
});
