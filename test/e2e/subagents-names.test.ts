/**
 * Every child named (adr/0025), with pi's example `subagent` extension: it starts each child as a `pi` process
 * and tells it no agent name. The root shows the child by the agent its own delegation call named, marked as a
 * guess; two children of one parallel call asking at once are told apart; in a chain root → planner → worker each
 * hop is named by its own parent.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STATUS_KEY } from "../../src/gate/status-reporter.ts";
import { runCli } from "../cli/cli-support.ts";
import type { DialogPolicy, DialogRequest } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { PermissionsWalk, walking } from "../harness/permissions-walk.ts";
import type { RpcSession } from "../harness/rpc-session.ts";
import { bash } from "./gate-support.ts";
import { cleanUpHubWorlds, isForwarded, SUBAGENT_EXAMPLE } from "./hub-support.ts";
import {
	auditWhen,
	conversationOf,
	SUBAGENT_TEST_TIMEOUT,
	type SubagentWorld,
	startRoot,
	subagentWorld,
	warningsOf,
} from "./subagents-support.ts";

afterEach(cleanUpHubWorlds);

const RECENT_SECTION = "── Recent decisions ──";
const GUESS_NOTE = "(? = the agent its parent's delegation call named: a guess)";

function agentFile(name: string): string {
	return `---\nname: ${name}\ndescription: test ${name}\nmodel: faux/faux-1\n---\nYou are the ${name}.\n`;
}

/**
 * Every pi of the world loads the scripted model and pi's example launcher from settings, and the gate as a
 * package (relative to the agent dir, as `pi install` writes it): children and grandchildren are gated.
 */
async function exampleWorld(agents: readonly string[]): Promise<SubagentWorld> {
	const world = await subagentWorld({});
	await world.sb.writeSettings({
		extensions: [FAUX_MODEL_EXTENSION, SUBAGENT_EXAMPLE],
		packages: [path.relative(world.sb.agentDir, REPO_ROOT)],
	});
	for (const agent of agents) await world.sb.writeAgentFile(`agents/${agent}.md`, agentFile(agent));
	for (const name of ["a.txt", "b.txt"]) await world.sb.writeWorkFile(name, "keep me");
	return world;
}

/** The root's own delegation asks too (an unknown tool); everything is allowed once. */
const allowAll: DialogPolicy = () => ({ select: "Allow once" });

function requester(request: DialogRequest): string {
	return /Requested by: ([^\n]*)/.exec(request.title)?.[1] ?? "";
}

describe("pi's example subagent launcher: children named by the root's delegation call", () => {
	it(
		"single mode: the dialog, the audit origin, explain and /permissions show the agent the call named, as a guess",
		async () => {
			const world = await exampleWorld(["worker"]);
			await writeScript(world.sb, {
				conversations: [
					conversationOf("[worker]", [bash("rm -f a.txt")]),
					conversationOf(undefined, [
						{ tool: "subagent", input: { agent: "worker", task: "[worker] clean up" } },
					]),
				],
			});
			const walk = new PermissionsWalk();
			const report = walk.lines;
			const { rpc, rootId } = await startRoot(world, walking(walk, allowAll), []);

			const run = await rpc.prompt("delegate the clean-up");

			const forwarded = run.dialogs.filter((d) => isForwarded(d.request)).map((d) => d.request);
			expect(forwarded.map(requester)).toEqual([`subagent root ← worker? ${GUESS_NOTE}`]);

			const entries = await auditWhen(world, (all) => all.some((e) => e.event === "forwarded_ask"));
			const atRoot = entries.find((e) => e.event === "forwarded_ask");
			const ownLine = entries.find((e) => e.event === "tool_call" && e.tool === "bash");
			expect(atRoot?.origin).toEqual({
				kind: "subagent",
				name: "subagent",
				depth: 1,
				path: ["root", "subagent"],
				shown: ["root", "worker?"],
			});
			// The child knows no name for itself: it shows its pid, the stable id the root can match.
			const childPid = ownLine?.origin?.kind === "subagent" ? ownLine.origin.shown?.[1] : undefined;
			expect(childPid).toMatch(/^subagent #\d+$/);

			const explained = await runCli(world.sb, ["explain", "root ← worker?"]);
			expect(explained.stdout).toContain("forwarded_ask  subagent root ← worker?");

			await rpc.prompt("/permissions");
			expect(report).toContain(RECENT_SECTION);
			expect(report.some((line) => line.includes("[subagent root ← worker?]"))).toBe(true);
			expect(rootId).not.toBe("");
			expect(warningsOf(rpc)).toEqual([]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"parallel mode: two unnamed children asking at once are told apart in the dialogs and the status line",
		async () => {
			const world = await exampleWorld(["scout", "worker"]);
			await writeScript(world.sb, {
				conversations: [
					conversationOf("[scout]", [bash("rm -f a.txt")]),
					conversationOf("[worker]", [bash("rm -f b.txt")]),
					conversationOf(undefined, [
						{
							tool: "subagent",
							input: {
								tasks: [
									{ agent: "scout", task: "[scout] tidy a" },
									{ agent: "worker", task: "[worker] tidy b" },
								],
							},
						},
					]),
				],
			});
			let root: RpcSession | undefined;
			let bothWaiting = "";
			const { rpc } = await startRoot(
				world,
				async (request) => {
					// The first forwarded dialog is answered only once both children wait: they ask at once.
					if (isForwarded(request) && bothWaiting === "")
						bothWaiting = await statusWhen(root, /2 forwarded asks pending/);
					return allowAll(request);
				},
				[],
			);
			root = rpc;

			const run = await rpc.prompt("tidy both in parallel");

			const forwarded = run.dialogs.filter((d) => isForwarded(d.request)).map((d) => requester(d.request));
			expect(forwarded.sort()).toEqual([
				`subagent root ← scout? ${GUESS_NOTE}`,
				`subagent root ← worker? ${GUESS_NOTE}`,
			]);
			expect(bothWaiting).toContain("scout?");
			expect(bothWaiting).toContain("worker?");
			expect([existsSync(world.sb.workPath("a.txt")), existsSync(world.sb.workPath("b.txt"))]).toEqual([
				false,
				false,
			]);
			expect(warningsOf(rpc)).toEqual([]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"a grandchild chain: root → planner → worker, each hop named by its own parent's delegation call",
		async () => {
			const world = await exampleWorld(["planner", "worker"]);
			await writeScript(world.sb, {
				conversations: [
					conversationOf("[worker]", [bash("rm -f a.txt")]),
					conversationOf("[planner]", [
						{ tool: "subagent", input: { agent: "worker", task: "[worker] clean up" } },
					]),
					conversationOf(undefined, [
						{ tool: "subagent", input: { agent: "planner", task: "[planner] delegate the clean-up" } },
					]),
				],
			});
			const { rpc, rootId } = await startRoot(world, allowAll, []);

			const run = await rpc.prompt("start the chain");

			const forwarded = run.dialogs.filter((d) => isForwarded(d.request)).map((d) => d.request);
			expect(forwarded.map(requester)).toEqual([
				`subagent root ← planner? ${GUESS_NOTE}`,
				`subagent root ← planner? ← worker? ${GUESS_NOTE}`,
			]);
			expect(forwarded[1]?.title).toContain("bash: rm -f a.txt");
			const entries = await auditWhen(
				world,
				(all) => all.filter((e) => e.event === "forwarded_ask" && e.tool === "bash").length >= 2,
			);
			const relayedAtRoot = entries.find(
				(e) => e.event === "forwarded_ask" && e.tool === "bash" && e.sessionId === rootId,
			);
			const relayedAtPlanner = entries.find(
				(e) => e.event === "forwarded_ask" && e.tool === "bash" && e.sessionId !== rootId,
			);
			expect(relayedAtRoot?.origin).toMatchObject({
				path: ["root", "subagent", "subagent"],
				shown: ["root", "planner?", "worker?"],
			});
			// The planner knows its own child, not its own name: it shows itself by its pid.
			expect(relayedAtPlanner?.origin).toMatchObject({ path: ["root", "subagent", "subagent"] });
			const atPlanner = relayedAtPlanner?.origin?.kind === "subagent" ? relayedAtPlanner.origin.shown : [];
			expect(atPlanner?.[0]).toBe("root");
			expect(atPlanner?.[1]).toMatch(/^subagent #\d+$/);
			expect(atPlanner?.[2]).toBe("worker?");
			expect(warningsOf(rpc)).toEqual([]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});

/** The root's status line once it matches `pattern` (within 30 s). */
async function statusWhen(rpc: RpcSession | undefined, pattern: RegExp): Promise<string> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const text = rpc?.statuses.get(STATUS_KEY) ?? "";
		if (pattern.test(text)) return text;
		if (Date.now() > deadline) throw new Error(`status never matched ${pattern}: ${JSON.stringify(text)}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}
