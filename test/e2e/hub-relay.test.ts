/**
 * Multi-hop: root (RPC) → planner (a headless child that relays) → worker. The worker's ask travels hop by hop
 * to the root's human, and the answer comes back with one `forwarded` frame per hop; a relay's own deny rule
 * settles the ask on the way up without bothering the root.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/audit/audit-entry.ts";
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

const RM = "rm -f victim.txt";

describe("a grandchild's ask relayed through its parent", () => {
	it("reaches the root dialog as root ← planner ← worker, and the answer carries two forwarded frames", async () => {
		const hub = await hubSandbox();
		await hub.sb.writeWorkFile("victim.txt", "keep me");
		await writeTree(hub.sb, [
			conversation("[worker]", [bashCall(RM)]),
			conversation("[planner]", [launch("worker", "[worker] remove the victim", { name: "worker" })]),
			conversation(undefined, [launch("planner", "[planner] plan the clean-up", { name: "planner" })]),
		]);
		const { rpc, sessionId: rootId } = await startRoot(hub, rootAllowsOwn(optionStarting("Allow once")));

		const run = await rpc.prompt("delegate");

		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(false);
		expect(run.dialogs).toHaveLength(1);
		const title = run.dialogs[0]?.request.title ?? "";
		expect(title).toContain("Requested by: subagent root ← planner ← worker");
		expect(title).toContain("Tier: destructive");
		expect(title).toContain(`bash: ${RM}`);

		const planner = childRun(hub, "planner");
		const worker = childRun(hub, "worker");
		expect(worker.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		const entries = await linesOf(hub.sb, rootId, planner.sessionId, worker.sessionId);
		expect(entries.worker).toMatchObject({
			event: "tool_call",
			origin: { kind: "subagent", name: "worker", depth: 2, path: ["root", "planner", "worker"] },
			outcome: "allow",
		});
		expect(unwrap(entries.worker.source)).toEqual({
			responders: [planner.sessionId, rootId],
			decided: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
		});
		expect(entries.planner).toMatchObject({
			event: "forwarded_ask",
			actionHash: entries.worker.actionHash,
			origin: { path: ["root", "planner", "worker"] },
			outcome: "allow",
		});
		expect(unwrap(entries.planner.source).responders).toEqual([rootId]);
		expect(entries.root).toMatchObject({
			event: "forwarded_ask",
			actionHash: entries.worker.actionHash,
			outcome: "allow",
			source: { kind: "user" },
		});
	});

	it("a relay's own deny rule refuses on the way up: no root dialog, source forwarded → rule", async () => {
		const hub = await hubSandbox();
		await hub.sb.writeWorkFile("victim.txt", "keep me");
		// Only the planner (working in mid/, with the project trusted) has this rule.
		const rules = {
			rules: [{ surface: "command", pattern: "rm *", action: "deny", reason: "planner forbids" }],
		};
		const projectFile = await hub.sb.writeWorkFile("mid/.pi/pi-permission-hub.json", JSON.stringify(rules));
		await writeTree(hub.sb, [
			conversation("[worker]", [bashCall(RM)]),
			conversation("[planner]", [
				launch("worker", "[worker] remove the victim", { name: "worker", cwd: ".." }),
			]),
			conversation(undefined, [
				launch("planner", "[planner] plan", { name: "planner", cwd: "mid", args: ["--approve"] }),
			]),
		]);
		const { rpc, sessionId: rootId } = await startRoot(hub, rootAllowsOwn(optionStarting("Allow once")));

		const run = await rpc.prompt("delegate");

		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
		expect(run.dialogs.filter((d) => isForwarded(d.request))).toHaveLength(0);
		const planner = childRun(hub, "planner");
		const worker = childRun(hub, "worker");
		expect(worker.toolResults[0]?.text).toContain(`matches the parent session's deny rule command "rm *"`);
		const entries = await expectLines(hub.sb, (all) => all.find((e) => e.sessionId === worker.sessionId));
		expect(entries).toMatchObject({ outcome: "deny", mode: "ask" });
		expect(unwrap(entries.source)).toEqual({
			responders: [planner.sessionId],
			decided: {
				kind: "rule",
				action: "deny",
				surface: "command",
				pattern: "rm *",
				origin: expect.objectContaining({ file: projectFile }),
				reason: "planner forbids",
			},
		});
		expect(auditNow(hub.sb).filter((e) => e.sessionId === rootId && e.event === "forwarded_ask")).toEqual([]);
	});
});

async function expectLines<T>(
	sb: Parameters<typeof auditNow>[0],
	pick: (all: AuditEntry[]) => T | undefined,
): Promise<T> {
	await expect.poll(() => pick(auditNow(sb)), { timeout: 5_000, interval: 50 }).toBeDefined();
	const picked = pick(auditNow(sb));
	if (picked === undefined) throw new Error("unreachable");
	return picked;
}

async function linesOf(
	sb: Parameters<typeof auditNow>[0],
	rootId: string,
	plannerId: string,
	workerId: string,
): Promise<{ root: AuditEntry; planner: AuditEntry; worker: AuditEntry }> {
	return expectLines(sb, (all) => {
		const root = all.find((e) => e.sessionId === rootId && e.event === "forwarded_ask");
		const planner = all.find((e) => e.sessionId === plannerId && e.event === "forwarded_ask");
		const worker = all.find((e) => e.sessionId === workerId && e.event === "tool_call");
		return root && planner && worker ? { root, planner, worker } : undefined;
	});
}
