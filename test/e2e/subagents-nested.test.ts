/**
 * A chain of two pi-subagents delegations (root → nester → nester): the grandchild's ask goes through the
 * middle child (two forwarded frames) to the root's human, and the path names every hop. pi-subagents sets
 * PI_SUBAGENT_PARENT_SESSION to the root for every descendant, so the middle child is found by session file.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";

import { bash, stopRpcAndCleanUp } from "./gate-support.ts";
import { isForwarded, unwrap } from "./hub-support.ts";
import {
	announcements,
	answer,
	auditWhen,
	conversationOf,
	delegate,
	GATED_CHILDREN,
	isGuardAsk,
	piSubagentsSettings,
	RM,
	SUBAGENT_TEST_TIMEOUT,
	type SubagentWorld,
	startRoot,
	subagentWorld,
	victimExists,
	warningsOf,
} from "./subagents-support.ts";

afterEach(stopRpcAndCleanUp);

async function nestedWorld(): Promise<SubagentWorld> {
	const world = await subagentWorld(piSubagentsSettings(GATED_CHILDREN));
	// `subagent` in its tools lets the agent delegate again (pi-subagents' default depth limit is 2).
	await world.sb.writeAgentFile(
		"agents/nester.md",
		"---\nname: nester\ndescription: delegates when told to\ntools: bash, subagent\nsystemPromptMode: append\n---\nYou delegate when told to.\n",
	);
	await writeScript(world.sb, {
		conversations: [
			conversationOf("LEVEL2-TASK", [bash(RM)]),
			conversationOf("LEVEL1-TASK", [delegate("nester", "LEVEL2-TASK delete victim.txt")]),
			conversationOf(undefined, [delegate("nester", "LEVEL1-TASK delegate again")]),
		],
	});
	return world;
}

describe("pi-subagents: a child that delegates again", () => {
	it(
		"the grandchild's rm reaches the root through the middle child; Allow deletes; two forwarded frames",
		async () => {
			const world = await nestedWorld();
			const { rpc, rootId } = await startRoot(
				world,
				answer(() => "Allow once"),
			);

			const run = await rpc.prompt("start the chain");

			expect(victimExists(world)).toBe(false);
			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([false, false, false]);
			expect(run.dialogs.map((d) => isForwarded(d.request))).toEqual([false, true, true]);
			expect(run.dialogs[1]?.request.title).toContain("Requested by: subagent root ← nester");
			expect(run.dialogs[2]?.request.title).toContain(`bash: ${RM}`);
			expect(run.dialogs[2]?.request.title).toContain("Requested by: subagent root ← nester ← nester");

			const entries = await auditWhen(world, (all) =>
				all.some((e) => e.event === "tool_call" && e.tool === "bash"),
			);
			const grandchild = entries.find((e) => e.event === "tool_call" && e.tool === "bash");
			const middle = entries.find(
				(e) => e.event === "tool_call" && e.tool === "subagent" && e.sessionId !== rootId,
			);
			expect(middle?.origin).toEqual({
				kind: "subagent",
				name: "nester",
				depth: 1,
				path: ["root", "nester"],
				shown: ["root", "nester"],
			});
			expect(grandchild?.origin).toEqual({
				kind: "subagent",
				name: "nester",
				depth: 2,
				path: ["root", "nester", "nester"],
				shown: ["root", "nester", "nester"],
			});
			expect(unwrap(grandchild?.source ?? { kind: "gate_error", reason: "none" })).toEqual({
				responders: [middle?.sessionId, rootId],
				decided: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
			});
			// Each hop recorded the relayed ask.
			const relayed = entries.filter((e) => e.event === "forwarded_ask" && e.tool === "bash");
			expect(relayed.map((e) => e.sessionId).sort()).toEqual([middle?.sessionId, rootId].sort());

			// Each parent knows its gated child.
			expect(announcements(world, rootId).map((a) => a.path)).toEqual([["root", "nester"]]);
			expect(announcements(world, middle?.sessionId ?? "").map((a) => a.path)).toEqual([
				["root", "nester", "nester"],
			]);
			expect(warningsOf(rpc)).toEqual([]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"Deny at the root keeps the file; the denial reaches the grandchild through both hops",
		async () => {
			const world = await nestedWorld();
			const { rpc } = await startRoot(
				world,
				answer((request) => (request.title.includes(`bash: ${RM}`) ? "Deny" : "Allow once")),
			);

			await rpc.prompt("start the chain");

			expect(victimExists(world)).toBe(true);
			const entries = await auditWhen(world, (all) =>
				all.some((e) => e.event === "tool_call" && e.tool === "bash"),
			);
			const grandchild = entries.find((e) => e.event === "tool_call" && e.tool === "bash");
			expect(grandchild?.outcome).toBe("deny");
			expect(unwrap(grandchild?.source ?? { kind: "gate_error", reason: "none" }).responders).toHaveLength(2);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
