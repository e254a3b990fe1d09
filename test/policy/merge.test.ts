import { describe, expect, it } from "vitest";
import { loadBashParser } from "../../src/classify/bash/bash-parser.ts";
import { sessionClassifier } from "../../src/gate/gate-deps.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import { decidedParts } from "../../src/policy/tier-settings.ts";
import { maxTier, type Tier } from "../../src/vocabulary/tier.ts";
import { CWD, HOME, PROJECT_FILE, policyFromConfig, USER_FILE } from "./fixtures.ts";

/**
 * A call's tier as the gate decides it: the session's classifier (the user file's `toolTiers`), then the
 * raise-only floors a decision applies (the project file's). `readOnly` tools declare `readOnlyHint`.
 */
async function decidedTier(
	policy: EffectivePolicy,
	tool: string,
	input: Record<string, unknown> = {},
	readOnly: readonly string[] = [],
): Promise<Tier> {
	const classify = sessionClassifier(
		await loadBashParser(),
		HOME,
		`${HOME}/.pi/agent`,
		(name) => (readOnly.includes(name) ? { readOnlyHint: true } : undefined),
		() => null,
	);
	const parts = decidedParts(classify({ tool, input, cwd: CWD }, policy), policy);
	return parts.reduce<Tier>((top, part) => maxTier(top, part.tier), "read");
}

describe("merging user and project files", () => {
	it("drops project allow rules with a warning naming file, path and line", () => {
		const policy = policyFromConfig(
			{ rules: [{ surface: "command", pattern: "git status", action: "allow" }] },
			{
				rules: [
					{ surface: "command", pattern: "npm test", action: "allow" },
					{ surface: "command", pattern: "curl *", action: "deny" },
				],
			},
		);
		expect(
			policy.rules.map((r) => [r.ref.pattern, r.ref.action, r.ref.origin.file, r.ref.origin.jsonPath]),
		).toEqual([
			["git status", "allow", USER_FILE, "rules[0]"],
			["curl *", "deny", PROJECT_FILE, "rules[1]"],
		]);
		expect(policy.warnings).toContainEqual({
			file: PROJECT_FILE,
			jsonPath: "rules[0]",
			line: 1,
			message: "ignored: a project file may only tighten, so its allow rules are dropped",
		});
	});

	it("tiers only tighten; loosening is ignored with a warning; a setting covers higher tiers", () => {
		const policy = policyFromConfig(
			{ tiers: { write: "auto", read: "ask", spend: "deny" } },
			{ tiers: { "network-egress": "deny", read: "auto" } },
		);
		expect(policy.tiers.read.mode).toBe("ask");
		expect(policy.tiers.write.mode).toBe("ask");
		expect(policy.tiers.write.ref.origin.file).toBe("built-in");
		expect(policy.tiers["network-egress"]).toMatchObject({
			mode: "deny",
			ref: { origin: { file: PROJECT_FILE } },
		});
		expect(policy.tiers.spend.mode).toBe("deny");
		expect(policy.tiers.privileged.ref).toMatchObject({
			surface: "tier",
			pattern: "privileged",
			action: "deny",
			origin: { file: USER_FILE, jsonPath: "tiers.spend" },
		});
		const messages = policy.warnings.map(
			(w) => `${w.file === USER_FILE ? "U" : "P"} ${w.jsonPath}: ${w.message}`,
		);
		expect(messages).toContain(
			'U tiers.write: ignored: "auto" would loosen the write tier past its default "ask"; tiers can only be tightened',
		);
		// read: "auto" in the project is the default (not a loosening), but the user file already made read ask.
		expect(messages).toContain(
			`P tiers.read: no effect: tiers.read in ${USER_FILE} already makes the read tier "ask" (a tier setting covers every higher tier)`,
		);
		expect(messages.some((m) => m.startsWith("P tiers.read: ignored"))).toBe(false);
	});

	it("warns when a tier setting is made moot by a stricter setting on a lower tier", () => {
		const policy = policyFromConfig({ tiers: { write: "deny", spend: "ask" } });
		expect(policy.tiers.spend.mode).toBe("deny");
		expect(policy.warnings.map((w) => [w.jsonPath, w.message])).toEqual([
			[
				"tiers.spend",
				`no effect: tiers.write in ${USER_FILE} already makes the spend tier "deny" (a tier setting covers every higher tier)`,
			],
		]);
	});

	it("takes the strictest unanswered policy and the smaller durations", () => {
		const policy = policyFromConfig(
			{ unanswered: "defer", dialogTimeoutSeconds: 120, deferExpiryHours: 48 },
			{ unanswered: "wait", dialogTimeoutSeconds: 600, deferExpiryHours: 2 },
		);
		expect(policy.unanswered).toBe("defer");
		expect(policy.dialogTimeoutSeconds).toBe(120);
		expect(policy.deferExpiryHours).toBe(2);
		const none = policyFromConfig({});
		expect(none.unanswered).toBeNull();
		expect(none.dialogTimeoutSeconds).toBe(300);
		expect(none.deferExpiryHours).toBe(24);
		expect(policyFromConfig({}, { unanswered: "deny" }).unanswered).toBe("deny");
	});

	it("notifies with the bell unless the user file says otherwise", () => {
		expect(policyFromConfig({}).notify).toBe("bell");
		expect(policyFromConfig({ notify: "off" }).notify).toBe("off");
	});

	it("keeps authorizerChain and grantCeiling from the user file, with origin and reason", () => {
		const policy = policyFromConfig({
			authorizerChain: ["corp", "ml"],
			grantCeiling: { tier: "destructive", reason: "sandbox VM" },
		});
		expect(policy.authorizerChain).toEqual(["corp", "ml"]);
		expect(policy.grantCeiling).toEqual({
			tier: "destructive",
			reason: "sandbox VM",
			origin: { file: USER_FILE, jsonPath: "grantCeiling", line: 1 },
		});
		expect(policyFromConfig({}).grantCeiling).toMatchObject({
			tier: "write",
			reason: null,
			origin: { file: "built-in" },
		});
	});

	it("unions agent rules and command tiers", () => {
		const policy = policyFromConfig(
			{
				agentRules: { allow: [{ kind: "human" }] },
				commandTiers: [{ pattern: "make deploy", tier: "spend" }],
			},
			{
				agentRules: { deny: [{ kind: "ci", name: "github-actions" }] },
				commandTiers: [{ pattern: "make *", tier: "write" }],
			},
		);
		expect(policy.agentRules.allow.map((m) => [m.kind, m.name, m.origin.file])).toEqual([
			["human", null, USER_FILE],
		]);
		expect(policy.agentRules.deny.map((m) => [m.kind, m.name, m.origin.jsonPath])).toEqual([
			["ci", "github-actions", "agentRules.deny[0]"],
		]);
		expect(policy.commandTiers.map((c) => [c.matcher.pattern, c.tier])).toEqual([
			["make deploy", "spend"],
			["make *", "write"],
		]);
	});

	it("tool tiers: the user file sets them, the project file only raises", async () => {
		const policy = policyFromConfig(
			{ toolTiers: { web_fetch: "network-egress", notes: "write" } },
			{ toolTiers: { web_fetch: "read", notes: "destructive", other: "spend" } },
		);
		expect(await decidedTier(policy, "web_fetch")).toBe("network-egress");
		expect(await decidedTier(policy, "notes")).toBe("destructive");
		expect(policy.toolTierFloors.get("notes")).toEqual({
			tier: "destructive",
			origin: { file: PROJECT_FILE, jsonPath: "toolTiers.notes", line: expect.any(Number) },
		});
		// An unknown tool is privileged; a floor below that changes nothing, and raises a read-only tool.
		expect(await decidedTier(policy, "other")).toBe("privileged");
		expect(await decidedTier(policy, "other", {}, ["other"])).toBe("spend");
		expect(await decidedTier(policy, "unlisted")).toBe("privileged");
		expect(policy.toolTiers.has("unlisted") || policy.toolTierFloors.has("unlisted")).toBe(false);
		// Built-in tools are classified by code: the user file's entry does not lower them.
		const bashRead = policyFromConfig({ toolTiers: { bash: "read" } });
		expect(await decidedTier(bashRead, "bash", { command: "rm -rf x" })).toBe("destructive");
	});

	it("warns about allow rules that can match actions above the grant ceiling", () => {
		const policy = policyFromConfig({
			rules: [
				{ surface: "command", pattern: "git *", action: "allow" },
				{ surface: "command", pattern: "git status", action: "allow" },
				{ surface: "command", pattern: "*", action: "allow" },
				{ surface: "tool", pattern: "bash", action: "allow" },
				{ surface: "tool", pattern: "read", action: "allow" },
				{ surface: "command", pattern: "rm *", action: "deny" },
			],
		});
		const flagged = policy.warnings.map((w) => w.jsonPath);
		expect(flagged).toEqual(["rules[0]", "rules[2]", "rules[3]"]);
		expect(policy.warnings[0]?.message).toBe(
			'allow command "git *" can match actions above the grant ceiling (write), e.g. git push; those will ask instead of running',
		);
		const raised = policyFromConfig({
			rules: [{ surface: "command", pattern: "git push *", action: "allow" }],
			grantCeiling: { tier: "network-egress", reason: "we push" },
		});
		expect(raised.warnings.map((w) => w.message)).toEqual([
			'allow command "git push *" can match actions above the grant ceiling (network-egress), e.g. git push --force origin main; those will ask instead of running',
		]);
	});

	it("expands ~ in path rules against the home directory", () => {
		const policy = policyFromConfig({ rules: [{ surface: "read", pattern: "~/.ssh/**", action: "deny" }] });
		const [rule] = policy.rules;
		expect(rule?.kind === "path" && rule.matcher.glob).toBe(`${HOME}/.ssh/**`);
	});
});

describe("merging the sandbox settings (adr/0017)", () => {
	it("the user file may turn it off; a project file only adds to it; a host must be in every list", () => {
		const user = {
			sandbox: {
				enabled: false,
				human: true,
				exclude: ["git commit *"],
				network: { allow: ["registry.npmjs.org", "*.github.com"] },
			},
		};
		const project = { sandbox: { required: true, enabled: false, network: { allow: ["*.github.com"] } } };
		const merged = policyFromConfig(user, project).sandbox;
		expect({ ...merged, exclude: merged.exclude.map((m) => m.pattern) }).toEqual({
			enabled: true,
			required: true,
			human: true,
			networkAllow: [["registry.npmjs.org", "*.github.com"], ["*.github.com"]],
			exclude: ["git commit *"],
		});
		// On by default; only the user file turns it off, and a project file cannot turn it off again.
		expect(policyFromConfig({}).sandbox).toEqual({
			enabled: true,
			required: false,
			human: false,
			networkAllow: [],
			exclude: [],
		});
		expect(policyFromConfig({ sandbox: { enabled: false } }).sandbox.enabled).toBe(false);
		expect(policyFromConfig({}, { sandbox: { enabled: false } }).sandbox.enabled).toBe(true);
		const turnedBackOn = policyFromConfig({ sandbox: { enabled: false } }, { sandbox: { enabled: true } });
		expect(turnedBackOn.sandbox.enabled).toBe(true);
	});

	it("only the user file may exempt commands from the sandbox", () => {
		const policy = policyFromConfig({}, { sandbox: { exclude: ["*"] } });
		expect(policy.configErrors[0]?.message).toContain("only the user-level config");
		expect(policy.configErrors[0]?.message).toContain("sandbox.exclude");
	});

	it("a malformed allowlist entry is a config error with its path, never a wider network", () => {
		for (const entry of [
			"*",
			"http://example.com",
			"example.com:99999",
			"[::1::2]",
			"[127.0.0.1]:80",
			"a b",
		]) {
			const policy = policyFromConfig({ sandbox: { enabled: true, network: { allow: [entry] } } });
			expect(policy.configErrors, entry).toHaveLength(1);
			expect(policy.configErrors[0]?.message, entry).toContain("sandbox.network.allow[0]");
		}
		for (const entry of [
			"example.com",
			"*.example.com",
			"127.0.0.1:8080",
			"[::1]:3000",
			"registry.npmjs.org",
		]) {
			const policy = policyFromConfig({ sandbox: { enabled: true, network: { allow: [entry] } } });
			expect(policy.configErrors, entry).toEqual([]);
		}
	});
});
