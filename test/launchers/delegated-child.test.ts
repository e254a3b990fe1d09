import { describe, expect, it } from "vitest";
import { argDigest, type DelegationRun, guessDelegatedAgent } from "../../src/launchers/delegated-child.ts";

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

/** A child as announced: the digest of each argument it started with, never the arguments. */
const child = (startedAt: number, argv: readonly string[] | null = null, descendant = true) => ({
	startedAt,
	descendant,
	argDigests: argv === null ? null : argv.map(argDigest),
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

	it("an agent started twice is shared: its name alone cannot tell the two apart", () => {
		const argv = ["pi", "Task: [worker] clean up more"];
		expect(guessDelegatedAgent(child(11_000, argv), [parallel])).toEqual({ agent: "worker", shared: true });
	});

	it("a launcher that passes the task as it is, without pi's example's `Task: `", () => {
		expect(guessDelegatedAgent(child(11_000, ["run", "[scout] look around"]), [parallel])).toEqual({
			agent: "scout",
			shared: false,
		});
	});

	it("several agents and no readable command line: no guess rather than a wrong one", () => {
		expect(guessDelegatedAgent(child(11_000), [parallel])).toBeNull();
		expect(guessDelegatedAgent(child(11_000, ["pi", "Task: something else"]), [parallel])).toBeNull();
	});

	it("a chain step whose {previous} the launcher filled in matches no task: no guess among several agents", () => {
		const chain: DelegationRun = {
			startedAt: 0,
			endedAt: null,
			tasks: [
				{ agent: "scout", task: "find the bug" },
				{ agent: "fixer", task: "fix {previous}" },
			],
		};
		expect(guessDelegatedAgent(child(1, ["pi", "Task: fix the parser"]), [chain])).toBeNull();
	});
});
