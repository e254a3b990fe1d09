/**
 * The managed layer (adr/0024) through the real loader: what it denies, asks and caps no user or project file
 * loosens; it limits modes, links and saved rules; a broken managed file fails closed like any other.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { decide } from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import { bashParser, classifyBash } from "../classify/classify-fixture.ts";
import { CWD, MANAGED_FILE, policyFrom } from "./fixtures.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const json = (value: unknown): string => JSON.stringify(value);

function modeOf(policy: EffectivePolicy, command: string): string {
	const action = classifyBash(bash, command, { cwd: CWD });
	return decide(action, policy, { origin: { kind: "human" }, grants: [], parkedApproval: null }).mode;
}

describe("the managed layer", () => {
	it("its deny and ask rules hold against a user allow", () => {
		const user = json({
			rules: [
				{ surface: "command", pattern: "git push *", action: "allow" },
				{ surface: "command", pattern: "touch *", action: "allow" },
			],
			grantCeiling: { tier: "network-egress", reason: "pushing all day" },
		});
		const managed = json({
			rules: [
				{ surface: "command", pattern: "git push *", action: "deny", reason: "pushes go through CI" },
				{ surface: "command", pattern: "touch *", action: "ask" },
			],
		});
		const policy = policyFrom(user, null, managed);
		expect(policy.configErrors).toEqual([]);
		expect(modeOf(policy, "git push origin main")).toBe("deny");
		expect(modeOf(policy, "touch notes.txt")).toBe("ask");
		expect(modeOf(policyFrom(user), "touch notes.txt")).toBe("auto");
	});

	it("its tiers and ceiling cannot be loosened, though a user file may go lower", () => {
		const managed = json({ tiers: { write: "ask" }, grantCeiling: { tier: "read", reason: "reads only" } });
		const user = json({
			tiers: { write: "auto" },
			grantCeiling: { tier: "network-egress", reason: "mine" },
			rules: [{ surface: "command", pattern: "touch *", action: "allow" }],
		});
		const policy = policyFrom(user, null, managed);
		expect(policy.grantCeiling).toMatchObject({ tier: "read", origin: { file: MANAGED_FILE } });
		expect(modeOf(policy, "touch notes.txt")).toBe("ask");
		const lower = policyFrom(json({ grantCeiling: { tier: "read", reason: "me too" } }), null, json({}));
		expect(lower.grantCeiling.tier).toBe("read");
	});

	it("limits modes, links and saved rules", () => {
		const user = json({
			authorizerChain: ["ci-judge", "home-made"],
			rules: [
				{
					surface: "command",
					pattern: "touch *",
					action: "allow",
					maxTier: "write",
					saved: "2026-12-01T00:00:00Z",
				},
			],
		});
		const managed = json({
			allowedModes: ["default", "plan"],
			allowedLinks: ["ci-judge"],
			allowSavedRules: false,
		});
		const policy = policyFrom(user, null, managed);
		expect(policy.allowedModes).toEqual(["default", "plan"]);
		expect(policy.authorizerChain).toEqual(["ci-judge"]);
		expect(policy.allowSavedRules).toBe(false);
		expect(modeOf(policy, "touch notes.txt")).toBe("ask");
		expect(policy.warnings.map((w) => w.message)).toEqual(
			expect.arrayContaining([
				'the authorizer link "home-made" is not in the managed allowedLinks: it is skipped',
				"1 saved rule(s) ignored: the managed config forbids saved rules",
			]),
		);
	});

	it("forwardWithUI: the user file chooses, a managed parent-only holds, a project file may not set it", () => {
		expect(policyFrom(null).forwardWithUI).toBe("parent-then-local");
		const userOnly = json({ forwardWithUI: "parent-only" });
		expect(policyFrom(userOnly).forwardWithUI).toBe("parent-only");
		const managedOnly = json({ forwardWithUI: "parent-only" });
		const local = json({ forwardWithUI: "parent-then-local" });
		expect(policyFrom(local, null, managedOnly).forwardWithUI).toBe("parent-only");
		// The managed layer only tightens: its parent-then-local does not override a user's parent-only.
		expect(policyFrom(userOnly, null, local).forwardWithUI).toBe("parent-only");
		const project = policyFrom(null, local);
		expect(project.configErrors[0]?.message).toContain("forwardWithUI");
		// A broken file: no subagent asks locally (nothing asks at all).
		expect(policyFrom(null, null, "{ not json").forwardWithUI).toBe("parent-only");
	});

	it("a broken managed file fails closed; keys that are the user's own are config errors there", () => {
		const broken = policyFrom(null, null, "{ not json");
		expect(broken.configErrors[0]?.file).toBe(MANAGED_FILE);
		expect(modeOf(broken, "ls")).toBe("deny");
		const userKey = policyFrom(null, null, json({ defaultMode: "trusted" }));
		expect(userKey.configErrors[0]?.message).toContain("defaultMode");
		const noModes = policyFrom(null, null, json({ allowedModes: [] }));
		expect(noModes.configErrors[0]?.message).toContain("allowedModes");
	});
});
