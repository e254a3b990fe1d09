/**
 * How a parent shows the children it serves, with real child processes of this test (their pids and ancestry
 * read from /proc): the agent its own delegation call named, else a stable id.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { ChildNames } from "../../src/gate/child-names.ts";
import type { ChildAnnouncement } from "../../src/hub/child-announcement.ts";
import { PROTOCOL } from "../../src/hub/protocol.ts";
import { argDigest } from "../../src/launchers/delegated-child.ts";
import { makeRequest } from "../hub/sample-request.ts";

const running: ChildProcess[] = [];

afterEach(() => {
	for (const child of running.splice(0)) child.kill();
});

/** A process of this one, as a launcher's child is. */
function startChild(task: string): number {
	const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", `Task: ${task}`], {
		stdio: "ignore",
	});
	running.push(child);
	if (child.pid === undefined) throw new Error("no pid");
	return child.pid;
}

/** What such a child announces: its pid and the digests of its arguments. */
function announced(sessionId: string, pid: number, args: readonly string[] = []): ChildAnnouncement {
	return {
		protocol: PROTOCOL,
		sessionId,
		agent: "subagent",
		path: ["root", "subagent"],
		pid,
		inProcess: false,
		startedAt: new Date().toISOString(),
		argDigests: args.map(argDigest),
	};
}

function askFrom(sessionId: string, pid: number) {
	return makeRequest({
		path: ["root", "subagent"],
		chain: [{ agent: "subagent", sessionId }],
		requesterPid: pid,
	});
}

describe.runIf(process.platform === "linux")(
	"ChildNames: children named by the parent's delegation call",
	() => {
		it("two unnamed children of one parallel call are told apart by the task each was started with", () => {
			const t0 = Date.now() - 1_000;
			const scout = startChild("[scout] look around");
			const worker = startChild("[worker] clean up");
			const children = [
				announced("scout-session", scout, ["--mode", "json", "Task: [scout] look around"]),
				announced("worker-session", worker, ["--mode", "json", "Task: [worker] clean up"]),
			];
			const names = new ChildNames({ pid: process.pid, ownShown: ["root"], announced: () => children });
			names.delegationStarted(
				"call-1",
				[
					{ agent: "scout", task: "[scout] look around" },
					{ agent: "worker", task: "[worker] clean up" },
				],
				t0,
			);

			expect(names.shownFor(askFrom("scout-session", scout))).toEqual(["root", "scout?"]);
			expect(names.shownFor(askFrom("worker-session", worker))).toEqual(["root", "worker?"]);
			expect(names.labelOf(children[1] as ChildAnnouncement)).toEqual(["root", "worker?"]);
		});

		it("the same agent started twice: each guess carries its pid", () => {
			const a = startChild("[worker] part one");
			const b = startChild("[worker] part two");
			const children = [
				announced("a", a, ["Task: [worker] part one"]),
				announced("b", b, ["Task: [worker] part two"]),
			];
			const names = new ChildNames({ pid: process.pid, ownShown: ["root"], announced: () => children });
			names.delegationStarted(
				"call-1",
				[
					{ agent: "worker", task: "[worker] part one" },
					{ agent: "worker", task: "[worker] part two" },
				],
				Date.now() - 1_000,
			);
			expect(names.shownFor(askFrom("a", a))).toEqual(["root", `worker? #${a}`]);
			expect(names.shownFor(askFrom("b", b))).toEqual(["root", `worker? #${b}`]);
		});

		it("no guess for a process this one did not start, for a child after the call ended, or without a call", () => {
			const mine = startChild("[worker] clean up");
			const tasks = [{ agent: "worker", task: "[worker] clean up" }];
			const stranger = new ChildNames({
				pid: process.pid,
				ownShown: ["root"],
				announced: () => [announced("init", 1)],
			});
			stranger.delegationStarted("call-1", tasks, Date.now() - 1_000);
			expect(stranger.shownFor(askFrom("init", 1))).toEqual(["root", "subagent #1"]);

			const late = new ChildNames({
				pid: process.pid,
				ownShown: ["root"],
				announced: () => [announced("late", mine)],
			});
			late.delegationStarted("call-1", tasks, Date.now() - 5_000);
			late.delegationFinished("call-1", Date.now() - 4_000);
			expect(late.shownFor(askFrom("late", mine))).toEqual(["root", `subagent #${mine}`]);

			const none = new ChildNames({ pid: process.pid, ownShown: ["root"], announced: () => [] });
			expect(none.shownFor(askFrom("unknown", 4242))).toEqual(["root", "subagent #4242"]);
		});

		it("a child's claimed name wins over the guess; hops below are shown as the relaying child saw them", () => {
			const middle = startChild("[planner] plan");
			const children = [{ ...announced("middle", middle), agent: "planner", path: ["root", "planner"] }];
			const names = new ChildNames({ pid: process.pid, ownShown: ["root"], announced: () => children });
			names.delegationStarted("call-1", [{ agent: "scout", task: "[planner] plan" }], Date.now() - 1_000);
			const relayed = makeRequest({
				path: ["root", "planner", "subagent"],
				chain: [
					{ agent: "subagent", sessionId: "grandchild" },
					{ agent: "planner", sessionId: "middle" },
				],
				requesterPid: middle,
				origin: {
					kind: "subagent",
					name: "subagent",
					depth: 2,
					path: ["root", "planner", "subagent"],
					shown: ["root", "planner", "worker ← root?"],
				},
			});
			expect(names.shownFor(relayed)).toEqual(["root", "planner", "worker - root?"]);
		});

		it("reads the announcements until a child's label is known, not on every ask (they are files)", () => {
			const pid = startChild("[child] work");
			let reads = 0;
			const names = new ChildNames({
				pid: process.pid,
				ownShown: ["root"],
				announced: () => {
					reads++;
					return [announced("child-1", pid, ["Task: [child] work"])];
				},
			});
			names.delegationStarted("call-1", [{ agent: "worker", task: "[child] work" }], Date.now() - 1_000);
			const first = names.shownFor(askFrom("child-1", pid));
			for (let i = 0; i < 5; i++) expect(names.shownFor(askFrom("child-1", pid))).toEqual(first);
			expect(first).toEqual(["root", "worker?"]);
			expect(reads).toBe(1);
		});
	},
);
