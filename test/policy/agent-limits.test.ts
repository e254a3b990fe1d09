/**
 * Per-agent limits (adr/0022) on the real policy builder and decision: `agents.<name>` sections apply to every
 * origin whose path holds the name, only tighten (deny, ask a human, raise a tier), hold against grants, allow
 * rules and parked approvals given to someone else, and are config errors at their JSON path when they would
 * loosen.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Origin } from "../../src/origin/origin.ts";
import { projectConfigPath, userConfigPath } from "../../src/policy/config-paths.ts";
import { decide, findCoveringGrant, findDeny, forwardedAskLimits } from "../../src/policy/decide.ts";
import { loadPolicy } from "../../src/policy/load-policy.ts";
import {
	APPROVED,
	bash,
	CWD,
	ctx,
	grant,
	HUMAN,
	pathPart,
	policyFromConfig,
	subagent,
	tempDir,
	action as toolAction,
	touch,
	writeFile,
} from "./fixtures.ts";

/** The README's example: a reviewer that may only read, a tester that may run `npm test` but never push. */
const CONFIG = {
	rules: [
		{ surface: "write", pattern: "src/**", action: "allow" },
		{ surface: "command", pattern: "npm test", action: "allow" },
	],
	agents: {
		reviewer: { tiers: { write: "deny" } },
		tester: {
			rules: [{ surface: "command", pattern: "git push *", action: "deny", reason: "testers never push" }],
			tiers: { write: "ask" },
		},
	},
};

const writeSrc = () => toolAction("write", [pathPart("write", touch("write", `${CWD}/src/a.ts`))]);
const grandchild = (parent: string, name: string): Origin => ({
	kind: "subagent",
	name,
	depth: 2,
	path: ["root", parent, name],
});

describe("agents sections: who they apply to", () => {
	const policy = policyFromConfig(CONFIG);

	it("a reviewer's write is denied while the root's own write is allowed by the rule", () => {
		expect(policy.configErrors).toEqual([]);
		expect(decide(writeSrc(), policy, ctx({ origin: HUMAN })).mode).toBe("auto");
		const denied = decide(writeSrc(), policy, ctx({ origin: subagent("reviewer") }));
		expect(denied).toMatchObject({
			mode: "deny",
			basis: {
				kind: "tier",
				rule: { agent: "reviewer", origin: { jsonPath: "agents.reviewer.tiers.write" } },
			},
		});
		// Reads still run unasked for the reviewer.
		const read = toolAction("read", [pathPart("read", touch("read", `${CWD}/src/a.ts`))]);
		expect(decide(read, policy, ctx({ origin: subagent("reviewer") })).mode).toBe("auto");
	});

	it("applies when any element of the path has the name: a reviewer's grandchild is still limited", () => {
		expect(decide(writeSrc(), policy, ctx({ origin: grandchild("reviewer", "helper") })).mode).toBe("deny");
		expect(decide(writeSrc(), policy, ctx({ origin: grandchild("planner", "reviewer") })).mode).toBe("deny");
		// A sibling, an unnamed child and every other kind of origin get no section.
		for (const origin of [subagent("writer"), subagent("unnamed"), HUMAN, { kind: "headless" } as const]) {
			expect(decide(writeSrc(), policy, ctx({ origin })).mode).toBe("auto");
		}
	});

	it("a tester may run npm test but never git push; the deny also holds for the parent's findDeny", () => {
		const tester = subagent("tester");
		expect(decide(bash(["npm test", "write"]), policy, ctx({ origin: tester })).mode).toBe("ask");
		expect(decide(bash(["npm test", "write"]), policy, ctx({ origin: HUMAN })).mode).toBe("auto");
		const push = bash(["git push origin main", "network-egress"]);
		expect(findDeny(push, policy, tester)).toMatchObject({
			basis: { kind: "rule", rule: { reason: "testers never push", agent: "tester" } },
		});
		expect(findDeny(push, policy, HUMAN)).toBeNull();
	});

	it("commandTiers of a section raise the tier for that agent only", () => {
		const raised = policyFromConfig({
			agents: { tester: { commandTiers: [{ pattern: "npm test", tier: "destructive" }] } },
			tiers: { destructive: "deny" },
		});
		expect(decide(bash(["npm test", "write"]), raised, ctx({ origin: subagent("tester") })).mode).toBe(
			"deny",
		);
		expect(decide(bash(["npm test", "write"]), raised, ctx({ origin: HUMAN })).mode).toBe("ask");
	});

	it("the project file's sections add to the user file's under the same name", () => {
		const merged = policyFromConfig(
			{ agents: { reviewer: { rules: [{ surface: "command", pattern: "curl *", action: "deny" }] } } },
			{ agents: { reviewer: { rules: [{ surface: "command", pattern: "npm *", action: "ask" }] } } },
		);
		const reviewer = ctx({ origin: subagent("reviewer") });
		expect(decide(bash(["curl x", "network-egress"]), merged, reviewer).mode).toBe("deny");
		expect(decide(bash(["npm ls", "read"]), merged, reviewer)).toMatchObject({
			mode: "ask",
			humanOnly: true,
		});
		expect(decide(bash(["npm ls", "read"]), merged, ctx()).mode).toBe("auto");
	});
});

describe("agents sections hold against everything that approves", () => {
	const policy = policyFromConfig(CONFIG);
	const tester = subagent("tester");

	it("an ask forced by a section beats session grants and allow rules, offers no grant and no link", () => {
		const grants = [grant("write", "src/**"), grant("tool", "write")];
		const decision = decide(writeSrc(), policy, ctx({ origin: tester, grants }));
		expect(decision).toMatchObject({
			mode: "ask",
			grantable: false,
			humanOnly: true,
			basis: { kind: "tier", rule: { agent: "tester" } },
		});
		// The same grants do approve the root's and another subagent's write.
		expect(decide(writeSrc(), policy, ctx({ origin: subagent("planner"), grants })).mode).toBe("auto");
	});

	it("an ask rule of a section is answered by a human alone, even when a top-level ask rule matches first", () => {
		const both = policyFromConfig({
			rules: [{ surface: "command", pattern: "make *", action: "ask" }],
			agents: { tester: { rules: [{ surface: "command", pattern: "make *", action: "ask" }] } },
		});
		expect(decide(bash(["make x", "write"]), both, ctx())).toMatchObject({ mode: "ask", humanOnly: false });
		expect(decide(bash(["make x", "write"]), both, ctx({ origin: tester }))).toMatchObject({
			mode: "ask",
			humanOnly: true,
			basis: { kind: "rule", rule: { agent: "tester" } },
		});
	});

	it("a whole-tree grant never covers what a section asks about (a parent deciding a forwarded ask)", () => {
		const tree = [{ ...grant("write", "src/**"), scope: "tree" as const }];
		expect(findCoveringGrant(writeSrc(), tree, policy, tester)).toBeNull();
		expect(forwardedAskLimits(writeSrc(), policy, tester).bySection).toBe(true);
		expect(findCoveringGrant(writeSrc(), tree, policy, subagent("planner"))?.scope).toBe("tree");
		expect(forwardedAskLimits(writeSrc(), policy, subagent("planner")).bySection).toBe(false);
	});

	it("a parked approval counts only when it was given to a request from an origin with the section's names", () => {
		const forRoot = ctx({ origin: tester, parkedApproval: APPROVED });
		expect(decide(writeSrc(), policy, forRoot).mode).toBe("ask");
		const forTester = ctx({ origin: tester, parkedApproval: { ...APPROVED, askerPath: ["root", "tester"] } });
		expect(decide(writeSrc(), policy, forTester)).toMatchObject({
			mode: "auto",
			basis: { kind: "parked_approval" },
		});
		// Never through a section's deny.
		const reviewerApproved = { ...APPROVED, askerPath: ["root", "reviewer"] };
		const reviewer = ctx({ origin: subagent("reviewer"), parkedApproval: reviewerApproved });
		expect(decide(writeSrc(), policy, reviewer).mode).toBe("deny");
	});

	it("a parked approval a link, rule or grant settled never answers a section's ask, here or at a parent", () => {
		const byLink = {
			...APPROVED,
			askerPath: ["root", "tester"],
			approvedBy: { kind: "authorizer", link: "ci-bot", verdict: "allow" },
		} as const;
		expect(decide(writeSrc(), policy, ctx({ origin: tester, parkedApproval: byLink }))).toMatchObject({
			mode: "ask",
			humanOnly: true,
		});
		expect(forwardedAskLimits(writeSrc(), policy, tester).approvalCounts(byLink)).toBe(false);
		const byHuman = { ...APPROVED, askerPath: ["root", "tester"] };
		expect(forwardedAskLimits(writeSrc(), policy, tester).approvalCounts(byHuman)).toBe(true);
		// An origin no section limits takes the link's approval as before.
		expect(forwardedAskLimits(writeSrc(), policy, subagent("planner")).approvalCounts(byLink)).toBe(true);
	});

	it("an ask where the top level asks too is the section's (stronger) ask", () => {
		const asks = policyFromConfig({ agents: { tester: { tiers: { write: "ask" } } } });
		expect(asks.configErrors).toEqual([]);
		expect(decide(writeSrc(), asks, ctx({ origin: tester, grants: [grant("tool", "write")] }))).toMatchObject(
			{
				mode: "ask",
				humanOnly: true,
			},
		);
		// A tier setting covers every higher tier.
		expect(decide(bash(["rm -rf x", "destructive"]), asks, ctx({ origin: tester }))).toMatchObject({
			mode: "ask",
			humanOnly: true,
		});
	});
});

describe("agents sections are config errors where they would loosen", () => {
	function world() {
		const root = tempDir();
		const agentDir = join(root, "home", ".pi", "agent");
		const cwd = join(root, "project");
		return { root, agentDir, cwd, userFile: userConfigPath(agentDir), projectFile: projectConfigPath(cwd) };
	}
	const load = (w: ReturnType<typeof world>) =>
		loadPolicy({ agentDir: w.agentDir, cwd: w.cwd, homeDir: join(w.root, "home"), projectTrusted: true });

	it("an allow rule, at its action's JSON path and line; every call is then denied", () => {
		const w = world();
		writeFile(
			w.userFile,
			`{\n\t"agents": {\n\t\t"reviewer": {\n\t\t\t"rules": [\n\t\t\t\t{ "surface": "write", "pattern": "src/**", "action": "allow" }\n\t\t\t]\n\t\t}\n\t}\n}\n`,
		);
		const policy = load(w);
		const [error] = policy.configErrors;
		expect(error).toMatchObject({ jsonPath: "agents.reviewer.rules[0].action", line: 5 });
		expect(error?.message).toContain(
			`config error in ${w.userFile} at agents.reviewer.rules[0].action (line 5`,
		);
		expect(error?.problem).toContain('an agents section may only tighten: "allow" is not allowed here');
		expect(decide(bash(["ls", "read"]), policy, ctx()).mode).toBe("deny");
	});

	it("an allow rule in a project file's section is an error too (not silently dropped)", () => {
		const w = world();
		writeFile(
			w.projectFile,
			`{ "agents": { "tester": { "rules": [ { "surface": "command", "pattern": "*", "action": "allow" } ] } } }`,
		);
		expect(load(w).configErrors[0]).toMatchObject({
			file: w.projectFile,
			jsonPath: "agents.tester.rules[0].action",
		});
	});

	it('"auto" in a section is an error at its tier', () => {
		const w = world();
		writeFile(w.userFile, `{\n  "agents": {\n    "reviewer": { "tiers": { "write": "auto" } }\n  }\n}\n`);
		const [error] = load(w).configErrors;
		expect(error).toMatchObject({ jsonPath: "agents.reviewer.tiers.write", line: 3 });
		expect(error?.problem).toContain('"auto" is not allowed here');
	});

	it("an ask where the merged top level denies is looser: an error naming the setting that denies", () => {
		const w = world();
		writeFile(
			w.userFile,
			`{\n  "agents": {\n    "tester": { "tiers": { "network-egress": "ask" } }\n  }\n}\n`,
		);
		writeFile(w.projectFile, `{ "tiers": { "write": "deny" } }`);
		const [error] = load(w).configErrors;
		expect(error).toMatchObject({
			file: w.userFile,
			jsonPath: 'agents.tester.tiers["network-egress"]',
			line: 3,
		});
		expect(error?.problem).toBe(
			`"ask" is looser than the network-egress tier's top-level "deny" (tiers.write in ${w.projectFile}); an agents section may only tighten`,
		);
	});

	it("a name that no sanitized origin label could carry is an error at the key", () => {
		const w = world();
		writeFile(w.userFile, `{ "agents": { " reviewer": { "tiers": { "write": "deny" } } } }`);
		const [error] = load(w).configErrors;
		expect(error?.jsonPath).toBe('agents[" reviewer"]');
		expect(error?.problem).toContain("an agent name without leading or trailing blanks");
	});
});
