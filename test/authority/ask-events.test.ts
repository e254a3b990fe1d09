/** `onAsk`: process-wide listeners of dialogs opening and closing, isolated from each other and the gate. */
import { describe, expect, it } from "vitest";
import { type AskEvent, askOutcomeOf, onAsk, publishAsk } from "../../src/authority/ask-events.ts";

const closed: AskEvent = {
	version: 1,
	askId: "a1",
	time: "2026-12-01T10:00:00.000Z",
	sessionId: "s1",
	kind: "own",
	origin: { kind: "human" },
	tool: "bash",
	tier: "destructive",
	actionHash: "h",
	preview: "rm -rf build",
	cwd: "/work",
	phase: "closed",
	outcome: "deny",
	durationMs: 12,
};

describe("onAsk", () => {
	it("a throwing listener neither stops the others nor reaches the publisher; unsubscribe stops delivery", () => {
		const heard: string[] = [];
		const offThrower = onAsk(() => {
			throw new Error("status bar bug");
		});
		const off = onAsk((event) => heard.push(`${event.phase} ${event.askId}`));
		expect(() => publishAsk(closed)).not.toThrow();
		off();
		offThrower();
		publishAsk(closed);
		expect(heard).toEqual(["closed a1"]);
	});
});

describe("askOutcomeOf", () => {
	it("names what ended the dialog: the answer, Esc, the deadline or a withdrawal", () => {
		expect(askOutcomeOf({ kind: "answer", answer: { kind: "allow", scope: "tree" } })).toBe("allow");
		expect(
			askOutcomeOf({ kind: "answer", answer: { kind: "always", verdict: "deny", where: "project" } }),
		).toBe("deny");
		expect(askOutcomeOf({ kind: "answer", answer: { kind: "deny", withReason: true }, reason: "no" })).toBe(
			"deny",
		);
		expect(askOutcomeOf({ kind: "answer", answer: { kind: "later" } })).toBe("later");
		expect(askOutcomeOf({ kind: "dismissed" })).toBe("dismissed");
		expect(askOutcomeOf({ kind: "timeout" })).toBe("timeout");
		expect(askOutcomeOf({ kind: "withdrawn" })).toBe("withdrawn");
	});
});
