/**
 * Rule examples through the real loader: config files in a temp dir, the real bash grammar, the real classifier.
 * A failing example is a config error at its JSON path and the policy fails closed; a passing one changes nothing.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RULE_WITH_EXAMPLES } from "../../scripts/config-reference/config-reference.ts";
import { type BashParser, loadBashParser } from "../../src/classify/bash/bash-parser.ts";
import { projectConfigPath, userConfigPath } from "../../src/policy/config-paths.ts";
import type { ConfigRule } from "../../src/policy/config-schema.ts";
import { decide } from "../../src/policy/decide.ts";
import { createPolicyStore, loadPolicy } from "../../src/policy/load-policy.ts";
import { bash as bashAction, ctx, tempDir } from "./fixtures.ts";

let grammar: BashParser;
beforeAll(async () => {
	grammar = await loadBashParser();
});

function world() {
	const root = tempDir();
	const home = join(root, "home");
	const agentDir = join(home, ".pi", "agent");
	const cwd = join(root, "project");
	mkdirSync(join(agentDir, "pi-permission-hub"), { recursive: true });
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	return { home, agentDir, cwd };
}

type World = ReturnType<typeof world>;

/** The user file holding these rules, loaded as a session would with the grammar at hand. */
function load(w: World, rules: readonly ConfigRule[], project: readonly ConfigRule[] | null = null) {
	writeFileSync(userConfigPath(w.agentDir), JSON.stringify({ rules }, null, "\t"));
	if (project !== null)
		writeFileSync(projectConfigPath(w.cwd), JSON.stringify({ rules: project }, null, "\t"));
	return loadPolicy({
		agentDir: w.agentDir,
		cwd: w.cwd,
		homeDir: w.home,
		projectTrusted: project !== null,
		bash: grammar,
	});
}

/** `[json path, problem]` of every issue of every config error. */
function problems(policy: ReturnType<typeof load>): [string, string][] {
	return policy.configErrors.flatMap((error) =>
		error.issues.map((i): [string, string] => [i.jsonPath, i.problem]),
	);
}

describe("rule examples", () => {
	it("examples the rule agrees with leave the policy as the rules say", () => {
		const policy = load(world(), [
			{
				surface: "command",
				pattern: "git push --force*",
				action: "deny",
				examples: {
					// The deny's other spellings count: the wrapper, the command word's basename, a chain.
					match: ["git push --force origin main", "sudo git push --force", "ls && /usr/bin/git push --force"],
					notMatch: ["git push origin main", "git pull --force"],
				},
			},
		]);
		expect(policy.configErrors).toEqual([]);
		expect(policy.rules).toHaveLength(1);
		expect(decide(bashAction(["git push --force", "network-egress"]), policy, ctx()).mode).toBe("deny");
	});

	it("a match example the rule misses is a config error at its JSON path and line; every call is denied", () => {
		const w = world();
		const policy = load(w, [
			{
				surface: "command",
				pattern: "git push --force*",
				action: "deny",
				examples: { match: ["git push --force", "git push -f origin main"] },
			},
		]);
		expect(problems(policy)).toEqual([
			[
				"rules[0].examples.match[1]",
				'the deny rule command "git push --force*" does not match its example "git push -f origin main"',
			],
		]);
		const [error] = policy.configErrors;
		expect(error?.file).toBe(userConfigPath(w.agentDir));
		expect(error?.line).toBe(10);
		expect(error?.message).toBe(
			`config error in ${userConfigPath(w.agentDir)} at rules[0].examples.match[1] (line 10): the deny rule command "git push --force*" does not match its example "git push -f origin main"`,
		);
		// Fail closed, as for any invalid file: no rule in force, every tier denies, reads included.
		expect(policy.rules).toEqual([]);
		const ls = decide(bashAction(["ls", "read"]), policy, ctx());
		expect(ls.mode).toBe("deny");
		expect(ls.basis.kind).toBe("config_error");
	});

	it("a notMatch example the rule matches is a config error naming the part it matched", () => {
		const policy = load(world(), [
			{
				surface: "command",
				pattern: "rm *",
				action: "ask",
				examples: { notMatch: ["ls", "cd build && rm -rf out"] },
			},
		]);
		expect(problems(policy)).toEqual([
			[
				"rules[0].examples.notMatch[1]",
				'the ask rule command "rm *" matches "cd build && rm -rf out", an example it must not match (it matches "rm -rf out")',
			],
		]);
	});

	it("an allow rule must cover every command of a match example, and cover no notMatch example", () => {
		const policy = load(world(), [
			{
				surface: "command",
				pattern: "npm test",
				action: "allow",
				examples: { match: ["npm test", "npm test && rm -rf build"], notMatch: ["npm test -- --watch"] },
			},
			{ surface: "command", pattern: "npm run *", action: "allow", examples: { notMatch: ["npm run lint"] } },
		]);
		expect(problems(policy)).toEqual([
			[
				"rules[0].examples.match[1]",
				'the allow rule command "npm test" does not cover its example "npm test && rm -rf build": "rm -rf build" is not covered',
			],
			[
				"rules[1].examples.notMatch[0]",
				'the allow rule command "npm run *" covers "npm run lint", an example it must not cover',
			],
		]);
	});

	it("a tool example is a tool name", () => {
		const w = world();
		const rule = (match: string): ConfigRule => ({
			surface: "tool",
			pattern: "web_*",
			action: "deny",
			examples: { match: [match], notMatch: ["bash"] },
		});
		expect(load(w, [rule("web_fetch")]).configErrors).toEqual([]);
		expect(problems(load(w, [rule("webfetch")]))).toEqual([
			["rules[0].examples.match[0]", 'the deny rule tool "web_*" does not match its example "webfetch"'],
		]);
	});

	it("a read or write example is the path of a read or write call: ~ is home, relative is from the cwd", () => {
		const w = world();
		const passing = load(w, [
			{
				surface: "read",
				pattern: "~/.ssh/**",
				action: "deny",
				examples: { match: ["~/.ssh/id_rsa"], notMatch: ["~/.sshx"] },
			},
			{
				surface: "write",
				pattern: "src/**",
				action: "allow",
				examples: {
					match: ["src/a.ts", join(w.cwd, "src/deep/b.ts")],
					notMatch: ["lib/a.ts", "../other/src/a.ts"],
				},
			},
		]);
		expect(passing.configErrors).toEqual([]);
		const failing = load(w, [
			{
				surface: "read",
				pattern: "~/.ssh/**",
				action: "deny",
				examples: { match: [join(w.cwd, ".ssh/id_rsa")] },
			},
			{ surface: "write", pattern: "src/**", action: "allow", examples: { notMatch: ["./src/a.ts"] } },
		]);
		expect(problems(failing)).toEqual([
			[
				"rules[0].examples.match[0]",
				`the deny rule read "~/.ssh/**" does not match its example ${JSON.stringify(join(w.cwd, ".ssh/id_rsa"))}`,
			],
			[
				"rules[1].examples.notMatch[0]",
				'the allow rule write "src/**" covers "./src/a.ts", an example it must not cover',
			],
		]);
	});

	it("a path example is any path touched; an outside-cwd example only a path outside the working directory", () => {
		const w = world();
		expect(
			load(w, [
				{
					surface: "path",
					pattern: "**/.env",
					action: "deny",
					examples: { match: [".env", "app/.env", "/etc/x/.env"], notMatch: [".envrc"] },
				},
				{
					surface: "outside-cwd",
					pattern: "**",
					action: "ask",
					examples: { match: ["/etc/hosts", "../sibling/x"], notMatch: ["src/a.ts"] },
				},
			]).configErrors,
		).toEqual([]);
		expect(
			problems(
				load(w, [
					{ surface: "outside-cwd", pattern: "**", action: "ask", examples: { match: ["src/a.ts"] } },
				]),
			),
		).toEqual([
			["rules[0].examples.match[0]", 'the ask rule outside-cwd "**" does not match its example "src/a.ts"'],
		]);
	});

	it("a malformed examples field is a schema error at its JSON path", () => {
		const w = world();
		writeFileSync(
			userConfigPath(w.agentDir),
			`{
	"rules": [
		{ "surface": "command", "pattern": "ls", "action": "allow", "examples": { "match": "ls" } },
		{ "surface": "command", "pattern": "ls", "action": "allow", "examples": { "matches": ["ls"] } },
		{ "surface": "command", "pattern": "ls", "action": "allow", "examples": { "notMatch": [""] } }
	]
}`,
		);
		const policy = loadPolicy({
			agentDir: w.agentDir,
			cwd: w.cwd,
			homeDir: w.home,
			projectTrusted: false,
			bash: grammar,
		});
		expect(policy.configErrors[0]?.issues.map((i) => [i.jsonPath, i.line, i.problem])).toEqual([
			["rules[0].examples.match", 3, 'expected an array, got a string ("ls")'],
			["rules[1].examples.matches", 4, 'unknown key "matches"'],
			["rules[2].examples.notMatch[0]", 5, "must not be empty"],
		]);
	});

	it("each file's failing examples are that file's error; a project's dropped allow rule is not tested", () => {
		const w = world();
		const policy = load(
			w,
			[{ surface: "command", pattern: "curl *", action: "deny", examples: { match: ["wget x"] } }],
			[
				{ surface: "command", pattern: "make *", action: "ask", examples: { notMatch: ["make"] } },
				{ surface: "command", pattern: "ls", action: "allow", examples: { match: ["rm x"] } },
			],
		);
		expect(policy.configErrors.map((e) => [e.scope, e.file, e.jsonPath])).toEqual([
			["user", userConfigPath(w.agentDir), "rules[0].examples.match[0]"],
			["project", projectConfigPath(w.cwd), "rules[0].examples.notMatch[0]"],
		]);
	});

	it("without the grammar the loader leaves examples untested; a store tests them once the grammar is there", () => {
		const w = world();
		writeFileSync(
			userConfigPath(w.agentDir),
			JSON.stringify({
				rules: [{ surface: "command", pattern: "ls", action: "deny", examples: { match: ["pwd"] } }],
			}),
		);
		expect(
			loadPolicy({ agentDir: w.agentDir, cwd: w.cwd, homeDir: w.home, projectTrusted: false }).configErrors,
		).toEqual([]);
		let loaded: BashParser | null = null;
		const store = createPolicyStore({
			agentDir: w.agentDir,
			cwd: w.cwd,
			homeDir: w.home,
			isProjectTrusted: () => false,
			bash: () => loaded,
		});
		expect(store.current().configErrors).toEqual([]);
		loaded = grammar;
		expect(store.current().configErrors[0]?.jsonPath).toBe("rules[0].examples.match[0]");
	});

	it("the configuration reference's example rule passes its own examples", () => {
		const rule: unknown = JSON.parse(RULE_WITH_EXAMPLES);
		const w = world();
		writeFileSync(userConfigPath(w.agentDir), JSON.stringify({ rules: [rule] }));
		const policy = loadPolicy({
			agentDir: w.agentDir,
			cwd: w.cwd,
			homeDir: w.home,
			projectTrusted: false,
			bash: grammar,
		});
		expect(policy.configErrors).toEqual([]);
		expect(policy.rules[0]?.examples.map((e) => e.expect)).toEqual([
			"match",
			"match",
			"notMatch",
			"notMatch",
		]);
	});
});
