/** The one line a run without a UI leaves on stderr about the calls its gate blocked. */
import { describe, expect, it } from "vitest";
import { BlockedCalls } from "../../src/gate/blocked-calls.ts";

describe("the blocked calls of a run", () => {
	it("say nothing when none was blocked", () => {
		const blocked = new BlockedCalls();
		blocked.count("allow");
		expect(blocked.summary("s1")).toBeNull();
	});

	it("count parked and refused calls apart, each with the command that shows them", () => {
		const blocked = new BlockedCalls();
		for (const outcome of ["pending", "deny", "allow", "deny"] as const) blocked.count(outcome);
		expect(blocked.summary("s1")).toBe(
			"pi-permission-hub: blocked 3 calls in this run: 1 parked for approval (pi-permission-hub pending --session s1), 2 refused (pi-permission-hub explain s1)",
		);
	});

	it("name one call as one", () => {
		const blocked = new BlockedCalls();
		blocked.count("pending");
		expect(blocked.summary("s2")).toBe(
			"pi-permission-hub: blocked 1 call in this run: 1 parked for approval (pi-permission-hub pending --session s2)",
		);
	});
});
