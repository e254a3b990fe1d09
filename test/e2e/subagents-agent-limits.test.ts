/**
 * Per-agent limits (adr/0022) with real pi: a root whose rule allows writes, and a child the launcher fixture
 * names `reviewer` (PI_SUBAGENT_CHILD_AGENT). The `agents.reviewer` section of the same user config holds in the
 * child's own gate and in the root deciding the child's forwarded ask.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonlFile, LINKS_FIXTURE, writeUserConfig } from "./gate-support.ts";
import {
	auditNow,
	bashCall,
	childRun,
	cleanUpHubWorlds,
	conversation,
	hubSandbox,
	isForwarded,
	launch,
	optionStarting,
	rootAllowsOwn,
	startRoot,
	unwrap,
	writeTree,
} from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

const WRITES_ALLOWED = [{ surface: "write", pattern: "**/*.txt", action: "allow" }];

async function reviewerTree(reviewerWrite: "deny" | "ask") {
	const hub = await hubSandbox();
	await writeUserConfig(hub.sb, {
		rules: WRITES_ALLOWED,
		agents: { reviewer: { tiers: { write: reviewerWrite } } },
	});
	await writeTree(hub.sb, [
		conversation("[child]", [bashCall("touch reviewer.txt")]),
		conversation(
			undefined,
			[bashCall("touch own.txt")],
			[launch("child", "[child] review the change", { name: "reviewer" })],
		),
	]);
	return hub;
}

/**
 * A reviewer limited (writes ask) only by review/'s trusted project file, and every session's chain naming the
 * allowing link, which only the root loads (the others skip it, unregistered). `delegate` starts the root (its
 * human allows) and prompts it: the reviewer's touch runs after one forwarded dialog, never put to the link.
 */
async function reviewLimitedOnlyInReview() {
	const sandbox = await hubSandbox();
	const linkLog = path.join(sandbox.sb.root, "links.jsonl");
	await writeUserConfig(sandbox.sb, { authorizerChain: ["fixture-allow"] });
	await sandbox.sb.writeWorkFile(
		"review/.pi/pi-permission-hub.json",
		JSON.stringify({ agents: { reviewer: { tiers: { write: "ask" } } } }),
	);
	const hub = { ...sandbox, env: { ...sandbox.env, PPH_LINK_LOG: linkLog } };
	const delegate = async (): Promise<{ rootId: string; title: string }> => {
		const { rpc, sessionId: rootId } = await startRoot(hub, rootAllowsOwn(optionStarting("Allow once")), {
			extensions: [LINKS_FIXTURE],
		});
		const run = await rpc.prompt("delegate the review");
		expect(existsSync(hub.sb.workPath("review/reviewer.txt"))).toBe(true);
		const forwarded = run.dialogs.filter((d) => isForwarded(d.request));
		expect(forwarded).toHaveLength(1);
		const linked = existsSync(linkLog) ? jsonlFile(linkLog).filter((call) => call.forwarded === true) : [];
		expect(linked).toEqual([]);
		return { rootId, title: forwarded[0]?.request.title ?? "" };
	};
	return { hub, delegate };
}

describe("agents sections with a named subagent", () => {
	it("a reviewer's touch is denied by its section while the root's own touch is allowed by the rule", async () => {
		const hub = await reviewerTree("deny");
		const { rpc, sessionId: rootId } = await startRoot(hub, rootAllowsOwn(optionStarting("Allow once")), {
			args: ["--approve"],
		});

		const run = await rpc.prompt("write, then delegate the review");

		expect(existsSync(hub.sb.workPath("own.txt"))).toBe(true);
		expect(existsSync(hub.sb.workPath("reviewer.txt"))).toBe(false);
		expect(run.dialogs).toEqual([]);
		const child = childRun(hub, "child");
		expect(child.toolResults[0]?.text).toContain("agents.reviewer.tiers.write");
		const lines = () => auditNow(hub.sb).filter((e) => e.tool === "bash");
		await expect.poll(() => lines().length, { timeout: 5_000 }).toBe(2);
		expect(lines().find((e) => e.sessionId === rootId)).toMatchObject({
			outcome: "allow",
			source: { kind: "rule", action: "allow", pattern: "**/*.txt" },
		});
		expect(lines().find((e) => e.sessionId === child.sessionId)).toMatchObject({
			outcome: "deny",
			mode: "deny",
			origin: { kind: "subagent", name: "reviewer" },
			source: {
				kind: "rule",
				surface: "tier",
				origin: expect.objectContaining({ jsonPath: "agents.reviewer.tiers.write" }),
			},
		});
	});

	it("a reviewer's ask reaches the root's human with no grant to offer, though the root's rule allows the write", async () => {
		const hub = await reviewerTree("ask");
		const offered: string[][] = [];
		const { rpc } = await startRoot(
			hub,
			rootAllowsOwn((request) => {
				if (request.method === "select") offered.push([...request.options]);
				return optionStarting("Deny")(request);
			}),
			{ args: ["--approve"] },
		);

		const run = await rpc.prompt("write, then delegate the review");

		expect(existsSync(hub.sb.workPath("own.txt"))).toBe(true);
		expect(existsSync(hub.sb.workPath("reviewer.txt"))).toBe(false);
		expect(run.dialogs.filter((d) => isForwarded(d.request))).toHaveLength(1);
		expect(offered).toHaveLength(1);
		expect(offered[0]?.some((option) => option.startsWith("Allow for"))).toBe(false);
		expect(offered[0]?.some((option) => option.startsWith("Always allow"))).toBe(false);
	});
});

describe("an agents section only the child's project file holds", () => {
	it("the child's human-only ask goes to the root's human, not to the root's allowing link", async () => {
		// The child works in review/, a file the root never reads; the child has no allowing link.
		const { hub, delegate } = await reviewLimitedOnlyInReview();
		await writeTree(hub.sb, [
			conversation("[child]", [bashCall("touch reviewer.txt")]),
			conversation(undefined, [
				launch("child", "[child] review the change", {
					name: "reviewer",
					cwd: "review",
					args: ["--approve"],
				}),
			]),
		]);
		const { rootId, title } = await delegate();

		expect(title).toContain("agents.reviewer.tiers.write");
		expect(title).toContain("only a human may answer");
		const child = childRun(hub, "child");
		const lines = () => auditNow(hub.sb).filter((e) => e.tool === "bash");
		await expect.poll(() => lines().length, { timeout: 5_000 }).toBe(2);
		expect(lines().find((e) => e.sessionId === rootId)).toMatchObject({
			event: "forwarded_ask",
			outcome: "allow",
			source: { kind: "user", via: "dialog", verdict: "allow" },
		});
		const childLine = lines().find((e) => e.sessionId === child.sessionId);
		expect(childLine?.outcome).toBe("allow");
		expect(unwrap(childLine?.source ?? { kind: "gate_error", reason: "none" })).toMatchObject({
			responders: [rootId],
			decided: { kind: "user", via: "dialog", verdict: "allow" },
		});
	});
});

describe("a grandchild's human-only ask, relayed through its parent", () => {
	it("reaches the root's human as root ← planner ← reviewer; the root's allowing link never sees it", async () => {
		// Only the grandchild works in review/: neither the planner nor the root reads its project file, so only the
		// flag on the relayed request can make the ask human-only up there.
		const { hub, delegate } = await reviewLimitedOnlyInReview();
		await writeTree(hub.sb, [
			conversation("[reviewer]", [bashCall("touch reviewer.txt")]),
			conversation("[planner]", [
				launch("reviewer", "[reviewer] review the change", {
					name: "reviewer",
					cwd: "review",
					args: ["--approve"],
				}),
			]),
			conversation(undefined, [launch("planner", "[planner] plan the review", { name: "planner" })]),
		]);
		const { rootId, title } = await delegate();

		expect(title).toContain("Requested by: subagent root ← planner ← reviewer");
		expect(title).toContain("agents.reviewer.tiers.write");
		expect(title).toContain("only a human may answer");

		const planner = childRun(hub, "planner");
		const reviewer = childRun(hub, "reviewer");
		const lines = () => auditNow(hub.sb).filter((e) => e.tool === "bash");
		await expect.poll(() => lines().length, { timeout: 5_000 }).toBe(3);
		const fullPath = { kind: "subagent", name: "reviewer", depth: 2, path: ["root", "planner", "reviewer"] };
		const rootLine = lines().find((e) => e.sessionId === rootId);
		expect(rootLine).toMatchObject({
			event: "forwarded_ask",
			origin: fullPath,
			outcome: "allow",
			source: { kind: "user", via: "dialog", verdict: "allow" },
		});
		expect(rootLine?.chain ?? []).toEqual([]);
		const plannerLine = lines().find((e) => e.sessionId === planner.sessionId);
		expect(plannerLine).toMatchObject({ event: "forwarded_ask", origin: fullPath, outcome: "allow" });
		expect(unwrap(plannerLine?.source ?? { kind: "gate_error", reason: "none" })).toMatchObject({
			responders: [rootId],
			decided: { kind: "user", via: "dialog", verdict: "allow" },
		});
		const reviewerLine = lines().find((e) => e.sessionId === reviewer.sessionId);
		expect(reviewerLine).toMatchObject({ event: "tool_call", origin: fullPath, outcome: "allow" });
		expect(unwrap(reviewerLine?.source ?? { kind: "gate_error", reason: "none" })).toMatchObject({
			responders: [planner.sessionId, rootId],
			decided: { kind: "user", via: "dialog", verdict: "allow" },
		});
	});
});
