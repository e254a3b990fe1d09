import { describe, expect, it } from "vitest";
import type { DecisionSource } from "../../src/provenance/decision-source.ts";
import { describeDecisionSource } from "../../src/provenance/describe-decision-source.ts";

describe("describeDecisionSource", () => {
	it.each<[DecisionSource, string]>([
		[{ kind: "user", via: "dialog", verdict: "allow", scope: "once" }, "user(dialog, allow once)"],
		[
			{ kind: "user", via: "cli", verdict: "deny", scope: "once", reason: "not today" },
			"user(cli, deny once: not today)",
		],
		[
			{ kind: "authorizer", link: "corp/bot", verdict: "deny", reason: "change freeze" },
			"authorizer(corp/bot: deny, change freeze)",
		],
		[{ kind: "authorizer", link: "ci-guard", verdict: "allow" }, "authorizer(ci-guard: allow)"],
		[
			{
				kind: "rule",
				surface: "command",
				pattern: "git push *",
				action: "deny",
				origin: { file: "/home/dev/.pi/agent/pi-permission-hub/config.json", jsonPath: "rules[2]", line: 9 },
			},
			'rule(command "git push *" → deny, /home/dev/.pi/agent/pi-permission-hub/config.json rules[2])',
		],
		[
			{
				kind: "rule",
				surface: "tier",
				pattern: "write",
				action: "ask",
				origin: { file: "built-in", jsonPath: "" },
			},
			'rule(tier "write" → ask, built-in)',
		],
		[
			{ kind: "session_grant", grantId: "g1", surface: "write", pattern: "/work/src/*", scope: "session" },
			'session_grant(write "/work/src/*", session)',
		],
		[
			{
				kind: "parked_approval",
				requestId: "req-7",
				approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
			},
			"parked_approval(req-7, approved by user(cli, allow once))",
		],
		[
			{
				kind: "parked_approval",
				requestId: "req-8",
				approvedBy: { kind: "authorizer", link: "ci-bot", verdict: "allow" },
			},
			"parked_approval(req-8, approved by authorizer(ci-bot: allow))",
		],
		[{ kind: "unavailable", reason: "no UI" }, "unavailable(no UI)"],
		[{ kind: "gate_error", reason: "boom" }, "gate_error(boom)"],
	])("describes %j as %s", (source, expected) => {
		expect(describeDecisionSource(source)).toBe(expected);
	});

	it("walks a forwarded chain hop by hop, shortening long session ids", () => {
		const source: DecisionSource = {
			kind: "forwarded",
			responderSessionId: "0192f3a4-5b6c-7d8e-9f00-112233445566",
			decision: {
				kind: "forwarded",
				responderSessionId: "root",
				decision: { kind: "user", via: "dialog", verdict: "allow", scope: "tree" },
			},
		};
		expect(describeDecisionSource(source)).toBe(
			"forwarded(0192f3a4…) → forwarded(root) → user(dialog, allow tree)",
		);
	});

	it("says so when a hop sent no source, and when there is none at all", () => {
		expect(describeDecisionSource({ kind: "forwarded", responderSessionId: "parent", decision: null })).toBe(
			"forwarded(parent) → (no source sent)",
		);
		expect(describeDecisionSource(null)).toBe("(none)");
	});

	it("stays on one line and shows no hidden characters, whatever the texts contain", () => {
		const source: DecisionSource = {
			kind: "forwarded",
			responderSessionId: "kid\nA",
			decision: {
				kind: "authorizer",
				link: "bot",
				verdict: "deny",
				reason: "line one\r\nFAKE: user(dialog, allow once)\u2028next\u202eevil\u200b\ttab",
			},
		};
		const text = describeDecisionSource(source);
		expect(text).not.toMatch(/[\n\r\t\u2028\u2029\u202e\u200b]/);
		expect(text).toBe(
			"forwarded(kid A) → authorizer(bot: deny, line one FAKE: user(dialog, allow once) nextevil tab)",
		);
	});
});
