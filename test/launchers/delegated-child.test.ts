import { describe, expect, it } from "vitest";
import { type DelegationRun, guessDelegatedAgent } from "../../src/launchers/delegated-child.ts";

const single: DelegationRun = {
	startedAt: 1_000,
	endedAt: 5_000,
	tasks: [{ agent: "worker", task: "clean up" }],
};
const parallel: DelegationRun = {
	startedAt: 10_000,
	endedAt: null,
	tasks: [
		{ agent: "scout", task: "[scout] look around" },
		{ agent: "worker", task: "[worker] clean up" },
		{ agent: "worker", task: "[worker] clean up more" },
	],
};

const child = (startedAt: number, argv: readonly string[] | null = null, descendant = true) => ({
	startedAt,
	descendant,
	argv,
});

describe("guessDelegatedAgent: ancestry, timing, then the task on the command line", () => {
	it("a child of this process that started while a single-agent call ran is that agent", () => {
		expect(guessDelegatedAgent(child(2_000), [single])).toEqual({ agent: "worker", shared: false });
	});

	it("no guess for a child of another process, or one that started outside every call", () => {
		expect(guessDelegatedAgent(child(2_000, null, false), [single])).toBeNull();
		expect(guessDelegatedAgent(child(500), [single])).toBeNull();
		expect(guessDelegatedAgent(child(6_000), [single])).toBeNull();
	});

	it("of several agents, the one whose task the command line carries", () => {
		const argv = ["node", "pi", "--mode", "json", "-p", "Task: [scout] look around"];
		expect(guessDelegatedAgent(child(11_000, argv), [single, parallel])).toEqual({
			agent: "scout",
			shared: false,
		});
	});

	it("the longest task wins when one task's text holds another's; an agent started twice is shared", () => {
		const argv = ["pi", "Task: [worker] clean up more"];
		expect(guessDelegatedAgent(child(11_000, argv), [parallel])).toEqual({ agent: "worker", shared: true });
	});

	it("several agents and no readable command line: no guess rather than a wrong one", () => {
		expect(guessDelegatedAgent(child(11_000), [parallel])).toBeNull();
		expect(guessDelegatedAgent(child(11_000, ["pi", "Task: something else"]), [parallel])).toBeNull();
	});

	it("a chain step's {previous} is filled in by the launcher", () => {
		const chain: DelegationRun = {
			startedAt: 0,
			endedAt: null,
			tasks: [
				{ agent: "scout", task: "find the bug" },
				{ agent: "fixer", task: "fix what was found: {previous} and test it" },
			],
		};
		const argv = ["pi", "Task: fix what was found: the parser drops tabs and test it"];
		expect(guessDelegatedAgent(child(1, argv), [chain])).toEqual({ agent: "fixer", shared: false });
	});
});
