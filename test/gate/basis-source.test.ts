import { beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { describeAskingPart, describeAskWhy, sourceOfBasis } from "../../src/gate/basis-source.ts";
import type { Origin } from "../../src/origin/origin.ts";
import { type Decision, decide, type ParkedApprovalFound } from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import type { SessionGrant } from "../../src/policy/grant-coverage.ts";
import { readDecisionSource } from "../../src/provenance/decision-source.ts";
import { bashParser, classifyBash } from "../classify/classify-fixture.ts";
import { grant, HUMAN, policyFrom, policyFromConfig, subagent, USER_FILE } from "../policy/fixtures.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

function decideFor(
	command: string,
	policy: EffectivePolicy,
	options: { origin?: Origin; grants?: SessionGrant[]; parkedApproval?: ParkedApprovalFound } = {},
): Decision {
	return decide(classifyBash(bash, command), policy, {
		origin: options.origin ?? HUMAN,
		grants: options.grants ?? [],
		parkedApproval: options.parkedApproval ?? null,
	});
}

/** Every source the gate records must read back with the strict reader, unchanged. */
function recorded(decision: Decision) {
	const source = sourceOfBasis(decision.basis);
	expect(readDecisionSource(JSON.parse(JSON.stringify(source)))).toEqual(source);
	return source;
}

describe("sourceOfBasis", () => {
	it("a deny rule becomes a rule source with its origin and reason", () => {
		const policy = policyFromConfig({
			rules: [{ surface: "command", pattern: "git push *", action: "deny", reason: "review first" }],
		});
		const source = recorded(decideFor("git push origin main", policy));
		expect(source).toMatchObject({
			kind: "rule",
			surface: "command",
			pattern: "git push *",
			action: "deny",
			reason: "review first",
			origin: { file: USER_FILE, jsonPath: expect.stringMatching(/rules/) },
		});
	});

	it("a tier default becomes a tier rule from the built-in defaults, without a line", () => {
		const source = recorded(decideFor("rm -rf build", policyFrom(null)));
		expect(source).toMatchObject({ kind: "rule", surface: "tier", pattern: "destructive", action: "ask" });
		expect(source.kind === "rule" && source.origin.file).toBe("built-in");
		expect(source.kind === "rule" && "line" in source.origin).toBe(false);
	});

	it("an agent-rule deny becomes an `agent` rule naming kind and name", () => {
		const policy = policyFromConfig({
			agentRules: { deny: [{ kind: "subagent", name: "worker" }, { kind: "ci" }] },
		});
		expect(recorded(decideFor("ls", policy, { origin: subagent("worker") }))).toMatchObject({
			kind: "rule",
			surface: "agent",
			pattern: "subagent:worker",
			action: "deny",
		});
		expect(
			recorded(decideFor("ls", policy, { origin: { kind: "ci", provider: "gitlab-ci" } })),
		).toMatchObject({
			pattern: "ci",
		});
	});

	it("a session grant and a parked approval are recorded as such", () => {
		const g = grant("command", "git checkout *", "grant-1");
		expect(recorded(decideFor("git checkout main", policyFrom(null), { grants: [g] }))).toEqual({
			kind: "session_grant",
			grantId: "grant-1",
			surface: "command",
			pattern: "git checkout *",
			scope: "session",
		});
		const approval = {
			requestId: "01ARZ3NDEKTSV4RRFFQ69G5FAV",
			approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
			askerPath: ["root"],
		} as const;
		expect(recorded(decideFor("rm -rf build", policyFrom(null), { parkedApproval: approval }))).toEqual({
			kind: "parked_approval",
			requestId: "01ARZ3NDEKTSV4RRFFQ69G5FAV",
			approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
		});
	});

	it("a config error is a gate_error, capped so the audit can still read it", () => {
		const longKey = "k".repeat(10_000);
		const source = recorded(decideFor("ls", policyFrom(`{ "${longKey}": true }`)));
		expect(source.kind).toBe("gate_error");
		expect(source.kind === "gate_error" && source.reason).toContain(USER_FILE);
	});
});

describe("describeAskWhy", () => {
	it("names the tier that asks, the built-in default and the part that asked", () => {
		const decision = decideFor("rm -rf build", policyFrom(null));
		if (decision.mode !== "ask") throw new Error("expected ask");
		expect(describeAskWhy(decision)).toBe("the destructive tier asks (built-in default) for: rm -rf build");
	});

	it("says why a command is not a read: the program no table knows, the word that could become an option", () => {
		const policy = policyFrom(null);
		const why = (command: string) => {
			const decision = decideFor(command, policy);
			if (decision.mode !== "ask") throw new Error(`expected ask: ${command}`);
			return describeAskWhy(decision);
		};
		expect(why("awk '{print $1}' f")).toBe(
			"the write tier asks (built-in default) for: awk '{print $1}' f — awk is not a known command, so write",
		);
		expect(why("ls -la *.py")).toBe(
			"the write tier asks (built-in default) for: ls -la *.py — `*.py` is expanded at run time and could become an option of ls",
		);
	});

	it("names an explicit ask rule with its file and JSON path, and appends notes", () => {
		const policy = policyFromConfig({
			rules: [
				{ surface: "command", pattern: "npm publish *", action: "ask" },
				{ surface: "command", pattern: "curl *", action: "allow" },
			],
		});
		const ruled = decideFor("npm publish --tag next", policy);
		if (ruled.mode !== "ask") throw new Error("expected ask");
		expect(describeAskWhy(ruled)).toMatch(
			new RegExp(`^ask rule command "npm publish \\*" \\(${USER_FILE} rules`),
		);
		const noted = decideFor("curl https://example.com", policy);
		if (noted.mode !== "ask") throw new Error("expected ask");
		expect(describeAskWhy(noted)).toMatch(
			/network-egress tier asks .*; allow command "curl \*".*above the grant ceiling/,
		);
	});

	it("names the other parts that ask after the one that decided, and what a redirect writes", () => {
		const decision = decideFor("ls && touch a.txt && echo x > b.txt && rm -rf build", policyFrom(null));
		if (decision.mode !== "ask") throw new Error("expected ask");
		expect(describeAskWhy(decision)).toBe(
			"the destructive tier asks (built-in default) for: rm -rf build; also asking: touch a.txt (write), writes b.txt (write)",
		);
	});
});

describe("describeAskingPart: a part shows with its quoting, its secrets redacted", () => {
	const partsOf = (command: string) => classifyBash(bash, command).parts.map(describeAskingPart);

	it("quotes a word the shell would need quoted", () => {
		expect(partsOf(`python3 -c 'import json; print("it'"'"'s")'`)).toEqual([
			`python3 -c 'import json; print("it'\\''s")'`,
		]);
		expect(partsOf('echo "a  b" ""')).toEqual(["echo 'a  b' ''"]);
		expect(partsOf("rm -rf build/x")).toEqual(["rm -rf build/x"]);
	});

	it("redacts a secret value in a part", () => {
		expect(partsOf("curl -u admin:hunter2 https://x.example")).toEqual([
			"curl -u admin:«redacted» https://x.example",
		]);
	});
});
