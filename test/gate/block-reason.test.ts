import { beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import {
	askDenyReason,
	describeCall,
	gateErrorReason,
	parkedReason,
	policyDenyReason,
} from "../../src/gate/block-reason.ts";
import type { Origin } from "../../src/origin/origin.ts";
import { type DenyDecision, decide } from "../../src/policy/decide.ts";
import { capSourceText, type DecisionSource } from "../../src/provenance/decision-source.ts";
import { bashParser, classifyBash } from "../classify/classify-fixture.ts";
import { HUMAN, policyFrom, policyFromConfig, subagent, USER_FILE } from "../policy/fixtures.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const NOT_RETRY = /Do not retry/;

function denyFor(command: string, config: unknown, origin: Origin = HUMAN): DenyDecision {
	const decision = decide(classifyBash(bash, command), policyFromConfig(config), {
		origin,
		grants: [],
		parkedApproval: null,
	});
	if (decision.mode !== "deny") throw new Error(`expected a deny for \`${command}\`, got ${decision.mode}`);
	return decision;
}

describe("policyDenyReason: a rule deny names the rule and where it was written", () => {
	it("names surface, pattern, file, JSON path and the rule's reason, and says not to retry", () => {
		const decision = denyFor("git push origin main", {
			rules: [
				{ surface: "command", pattern: "git status", action: "allow" },
				{ surface: "command", pattern: "git push *", action: "deny", reason: "pushes go through review" },
			],
		});
		const reason = policyDenyReason(
			describeCall(classifyBash(bash, "git push origin main"), "bash"),
			decision,
		);
		expect(reason).toContain('the deny rule command "git push *"');
		expect(reason).toContain(USER_FILE);
		expect(reason).toMatch(/rules\[1\]/);
		expect(reason).toContain("Reason: pushes go through review.");
		expect(reason).toContain("this bash call (git push origin main)");
		expect(reason).toMatch(NOT_RETRY);
		expect(reason).not.toMatch(/user denied/i);
	});

	it("names a path rule's surface and glob", () => {
		const decision = denyFor("cat .env", {
			rules: [{ surface: "read", pattern: "**/.env", action: "deny" }],
		});
		const reason = policyDenyReason("this bash call (cat .env)", decision);
		expect(reason).toContain('the deny rule read "**/.env"');
		expect(reason).not.toContain("Reason:");
		expect(reason).toMatch(NOT_RETRY);
	});

	it("names a tier set to deny and where", () => {
		const decision = denyFor("rm -rf build", { tiers: { destructive: "deny" } });
		const reason = policyDenyReason("this bash call (rm -rf build)", decision);
		expect(reason).toContain("is in the destructive tier, which is set to deny in");
		expect(reason).toContain(USER_FILE);
		expect(reason).toMatch(/tiers/);
		expect(reason).toMatch(NOT_RETRY);
	});

	it("names an agent-rule deny with the origin it matched", () => {
		const decision = denyFor(
			"ls",
			{ agentRules: { deny: [{ kind: "subagent", name: "worker" }] } },
			subagent("worker"),
		);
		const reason = policyDenyReason("this bash call (ls)", decision);
		expect(reason).toContain('comes from subagent "worker", which agentRules.deny in');
		expect(reason).toContain(USER_FILE);
		expect(reason).toMatch(NOT_RETRY);
	});

	it("explains a broken config, naming the file, and caps the quoted problem", () => {
		const decision = decide(classifyBash(bash, "ls"), policyFrom("{ not json"), {
			origin: HUMAN,
			grants: [],
			parkedApproval: null,
		});
		if (decision.mode !== "deny") throw new Error("a broken config must deny");
		const reason = policyDenyReason("this bash call (ls)", decision);
		expect(reason).toContain(USER_FILE);
		expect(reason).toMatch(/all tool calls are blocked until it is fixed/);
		expect(reason).toMatch(NOT_RETRY);

		const longKey = "k".repeat(10_000);
		const huge = decide(classifyBash(bash, "ls"), policyFrom(`{ "${longKey}": 1 }`), {
			origin: HUMAN,
			grants: [],
			parkedApproval: null,
		});
		if (huge.mode !== "deny") throw new Error("a broken config must deny");
		expect(policyDenyReason("this bash call (ls)", huge).length).toBeLessThan(2500);
	});
});

describe("askDenyReason: never calls nobody a user", () => {
	const WHAT = "this bash call (rm -rf build)";
	const user: DecisionSource = { kind: "user", via: "dialog", verdict: "deny", scope: "once" };
	const flat: DecisionSource[] = [
		user,
		{ kind: "user", via: "cli", verdict: "deny", scope: "once", reason: "no" },
		{ kind: "authorizer", link: "corp/bot", verdict: "deny", reason: "change freeze" },
		{ kind: "unavailable", reason: "no answer within 300 s" },
		{ kind: "gate_error", reason: "classifier crashed" },
		{
			kind: "rule",
			surface: "command",
			pattern: "rm *",
			action: "deny",
			origin: { file: USER_FILE, jsonPath: "rules[0]" },
		},
		{ kind: "session_grant", grantId: "g", surface: "command", pattern: "rm *", scope: "session" },
		{
			kind: "parked_approval",
			requestId: "r",
			approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
		},
	];
	const wrap = (source: DecisionSource | null, hops: number): DecisionSource => {
		let out: DecisionSource | null = source;
		for (let i = 0; i < hops; i++) out = { kind: "forwarded", responderSessionId: `hop-${i}`, decision: out };
		if (out === null) throw new Error("wrap needs a source or at least one hop");
		return out;
	};
	const cases: [string, DecisionSource, boolean][] = [];
	for (const source of flat) {
		for (const hops of [0, 1, 3])
			cases.push([`${source.kind} after ${hops} hop(s)`, wrap(source, hops), source.kind === "user"]);
	}
	cases.push(["a forwarded hop with no source", wrap(null, 1), false]);
	cases.push(["two hops, the last with no source", wrap(null, 2), false]);

	it.each(cases)("%s", (_name, source, byUser) => {
		const reason = askDenyReason(WHAT, "destructive", source, "my reason");
		expect(/user denied/i.test(reason)).toBe(byUser);
		expect(reason).toMatch(/not retry/i);
	});

	it("unavailable says no one could be asked and that it is not a user denial", () => {
		const reason = askDenyReason(
			WHAT,
			"destructive",
			wrap({ kind: "unavailable", reason: "the parent is gone" }, 2),
		);
		expect(reason).toContain(
			"needs approval (tier destructive), but no one could be asked: the parent is gone",
		);
		expect(reason).toContain("This is not a user denial.");
		expect(reason).toMatch(NOT_RETRY);
	});

	it("a user deny quotes the user's reason, capped", () => {
		expect(askDenyReason(WHAT, "destructive", user, "build is shared")).toBe(
			`The user denied ${WHAT}. Their reason: "build is shared". Do not retry it or an equivalent; ask the user how to proceed.`,
		);
		const long = askDenyReason(WHAT, "destructive", user, "x".repeat(50_000));
		expect(long.length).toBeLessThan(2500);
	});

	it("an authorizer deny names the link and its reason", () => {
		const reason = askDenyReason(WHAT, "destructive", wrap(flat[2] ?? user, 1));
		expect(reason).toContain('the authorizer "corp/bot" denied this bash call (rm -rf build): change freeze');
		expect(reason).toMatch(NOT_RETRY);
	});
});

describe("other block reasons", () => {
	it("parkedReason: pending, not a denial, how to approve, not to retry before approval", () => {
		const reason = parkedReason("this bash call (rm -rf build)", "req-42");
		expect(reason).toContain("pending approval req-42");
		expect(reason).toContain("this is not a denial");
		expect(reason).toContain('"pi-permission-hub approve req-42"');
		expect(reason).toMatch(/not retry/i);
		expect(reason).not.toMatch(/user denied/i);
	});

	it("gateErrorReason: fail closed, the error, capped, not to retry", () => {
		const reason = gateErrorReason("this bash call", "boom");
		expect(reason).toContain("failed, so the call was blocked (fail closed): boom.");
		expect(reason).toMatch(NOT_RETRY);
		expect(reason).not.toMatch(/user denied/i);
		const huge = gateErrorReason("this bash call", "e".repeat(100_000));
		expect(huge).toContain(capSourceText("e".repeat(100_000)));
		expect(huge.length).toBeLessThan(2500);
	});

	it("describeCall: the tool and a preview cut at 300 characters", () => {
		expect(describeCall(null, "bash")).toBe("this bash call");
		expect(describeCall(classifyBash(bash, "ls -la"), "bash")).toBe("this bash call (ls -la)");
		const long = describeCall(classifyBash(bash, `echo ${"y".repeat(1000)}`), "bash");
		expect(long).toBe(`this bash call (echo ${"y".repeat(295)}…)`);
	});
});
