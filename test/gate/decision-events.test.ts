import { afterEach, describe, expect, it } from "vitest";
import { type DecisionEvent, onDecision, publishDecision } from "../../src/gate/decision-events.ts";

type DecisionEventsModule = typeof import("../../src/gate/decision-events.ts");

const event: DecisionEvent = {
	version: 1,
	time: "2025-06-01T12:00:00.000Z",
	sessionId: "session-1",
	event: "tool_call",
	tool: "bash",
	tier: "destructive",
	actionHash: "e".repeat(64),
	preview: "rm -rf build",
	mode: "ask",
	outcome: "deny",
	source: { kind: "user", via: "dialog", verdict: "deny", scope: "once" },
	origin: { kind: "human" },
};

const unsubscribes: (() => void)[] = [];
function subscribe(listener: (e: DecisionEvent) => void): () => void {
	const stop = onDecision(listener);
	unsubscribes.push(stop);
	return stop;
}

afterEach(() => {
	for (const stop of unsubscribes.splice(0)) stop();
});

describe("decision events", () => {
	it("delivers each published decision to every listener", () => {
		const a: DecisionEvent[] = [];
		const b: DecisionEvent[] = [];
		subscribe((e) => a.push(e));
		subscribe((e) => b.push(e));
		publishDecision(event);
		expect(a).toEqual([event]);
		expect(b).toEqual([event]);
	});

	it("a throwing listener stops neither the publisher nor the other listeners", () => {
		const seen: string[] = [];
		subscribe(() => seen.push("before"));
		subscribe(() => {
			throw new Error("observer bug");
		});
		subscribe(() => {
			throw "not even an Error";
		});
		subscribe(() => seen.push("after"));
		expect(() => publishDecision(event)).not.toThrow();
		expect(seen).toEqual(["before", "after"]);
	});

	it("unsubscribing stops delivery", () => {
		const seen: DecisionEvent[] = [];
		const stop = subscribe((e) => seen.push(e));
		stop();
		publishDecision(event);
		expect(seen).toEqual([]);
	});

	it("listeners are process-wide: a separately loaded copy of the module publishes to them", async () => {
		const specifier = "../../src/gate/decision-events.ts?copy=2";
		const copy: DecisionEventsModule = await import(specifier);
		expect(copy.publishDecision).not.toBe(publishDecision);
		const seen: string[] = [];
		subscribe((e) => seen.push(`original:${e.sessionId}`));
		const stop = copy.onDecision((e) => seen.push(`copy:${e.sessionId}`));
		unsubscribes.push(stop);
		copy.publishDecision(event);
		publishDecision({ ...event, sessionId: "session-2" });
		expect(seen).toEqual(["original:session-1", "copy:session-1", "original:session-2", "copy:session-2"]);
	});
});
