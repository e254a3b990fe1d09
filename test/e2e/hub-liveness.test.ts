/**
 * Liveness across real processes: a child whose root dies while it waits learns it within the hub's 2 s and is
 * told nobody could be asked; a root whose asking child dies withdraws the dialog within 2 s. Both figures are
 * measured from the SIGKILL and printed.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { never } from "../harness/dialog-policy.ts";
import type { RpcRecord } from "../harness/rpc-session.ts";
import { USER_DENIAL } from "./gate-support.ts";
import {
	auditNow,
	bashCall,
	childPid,
	childRun,
	cleanUpHubWorlds,
	conversation,
	hubLog,
	hubSandbox,
	isForwarded,
	launch,
	rootAllowsOwn,
	startRoot,
	writeTree,
} from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

const RM = "rm -f victim.txt";
/** The hub promises 2 s; the margin covers process scheduling on a loaded 2-core machine. */
const LIVENESS_BUDGET_MS = 2_500;
const STATUS_KEY = "pi-permission-hub";

async function waitingChild() {
	const hub = await hubSandbox();
	await hub.sb.writeWorkFile("victim.txt", "keep me");
	await writeTree(hub.sb, [
		conversation("[child]", [bashCall(RM)]),
		conversation(undefined, [launch("child", "[child] remove the victim", { name: "worker" })]),
	]);
	const root = await startRoot(hub, rootAllowsOwn(never));
	// The prompt never settles normally in these tests: the root or the child is killed under it.
	const prompt = root.rpc.prompt("delegate").catch((error: unknown) => error);
	const dialog = await root.rpc.waitForDialog(isForwarded, 20_000);
	await expect
		.poll(() => root.rpc.statuses.get(STATUS_KEY), { timeout: 5_000 })
		.toContain("1 forwarded ask pending");
	return { hub, ...root, prompt, dialog };
}

/** root → planner (relay) → worker, the worker's ask open at the root's dialog. */
async function waitingGrandchild() {
	const hub = await hubSandbox();
	await hub.sb.writeWorkFile("victim.txt", "keep me");
	await writeTree(hub.sb, [
		conversation("[worker]", [bashCall(RM)]),
		conversation("[planner]", [launch("worker", "[worker] remove the victim", { name: "worker" })]),
		conversation(undefined, [launch("planner", "[planner] plan", { name: "planner" })]),
	]);
	const root = await startRoot(hub, rootAllowsOwn(never));
	const prompt = root.rpc.prompt("delegate").catch((error: unknown) => error);
	await root.rpc.waitForDialog(isForwarded, 20_000);
	await expect
		.poll(() => root.rpc.statuses.get(STATUS_KEY), { timeout: 5_000 })
		.toContain("1 forwarded ask pending");
	return { hub, ...root, prompt };
}

/** The extension's status line no longer mentions a pending forwarded ask: how an RPC client sees a withdrawal. */
function pendingStatusCleared(r: RpcRecord): boolean {
	return (
		r.type === "extension_ui_request" &&
		r.method === "setStatus" &&
		r.statusKey === STATUS_KEY &&
		(typeof r.statusText !== "string" || !r.statusText.includes("pending"))
	);
}

describe("liveness", () => {
	it("a child whose root is killed answers 'unavailable' within 2 s, never 'user denied'", async () => {
		const { hub, rpc, sessionId: rootId, prompt } = await waitingChild();
		const rootPid = rpc.pid;
		if (rootPid === undefined) throw new Error("the root has no pid");

		const killedAt = Date.now();
		process.kill(rootPid, "SIGKILL");
		await prompt;

		const childLine = () =>
			auditNow(hub.sb).find((e) => e.event === "tool_call" && e.tool === "bash" && e.sessionId !== rootId);
		await expect.poll(childLine, { timeout: 10_000, interval: 20 }).toBeDefined();
		const line = childLine();
		if (!line) throw new Error("unreachable");
		const elapsed = Date.parse(line.time) - killedAt;
		console.log(`[liveness] root SIGKILLed → child's unavailable decision recorded after ${elapsed} ms`);
		expect(
			elapsed,
			`the child took ${elapsed} ms to notice its dead root (budget ${LIVENESS_BUDGET_MS} ms)`,
		).toBeLessThanOrEqual(LIVENESS_BUDGET_MS);

		expect(line).toMatchObject({ outcome: "deny", mode: "ask", source: { kind: "unavailable" } });
		expect(line.source.kind === "unavailable" && line.source.reason).toContain(
			"the parent session went away",
		);
		expect(hubLog(hub.sb).some((e) => e.event === "client.parent_gone")).toBe(true);

		await expect.poll(() => childRun(hub, "child").toolResults.length, { timeout: 5_000 }).toBe(1);
		const [result] = childRun(hub, "child").toolResults;
		expect(result?.isError).toBe(true);
		expect(result?.text).toContain("no one could be asked");
		expect(result?.text).toContain("This is not a user denial");
		expect(result?.text).not.toMatch(USER_DENIAL);
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
	});

	it("a root whose asking child is killed withdraws the dialog within 2 s", async () => {
		const { hub, rpc, sessionId: rootId, prompt, dialog } = await waitingChild();
		const pid = childPid(hub, "child");
		if (pid === null) throw new Error("the child wrote no pid");
		const requestLogged = () => hubLog(hub.sb).some((e) => e.event === "server.withdrawn");
		expect(requestLogged()).toBe(false);

		const since = rpc.events.length;
		const killedAt = Date.now();
		process.kill(pid, "SIGKILL");
		// pi's RPC mode sends nothing when a dialog's signal aborts (it settles the dialog locally), so what the
		// client sees is the extension clearing its "forwarded ask pending" status.
		await rpc.waitFor(pendingStatusCleared, 5_000, since);
		const elapsed = Date.now() - killedAt;
		console.log(`[liveness] child SIGKILLed → root's dialog withdrawn (status cleared) after ${elapsed} ms`);
		expect(
			elapsed,
			`the root took ${elapsed} ms to withdraw the dead child's dialog (budget ${LIVENESS_BUDGET_MS} ms)`,
		).toBeLessThanOrEqual(LIVENESS_BUDGET_MS);

		await expect.poll(requestLogged, { timeout: 2_000 }).toBe(true);
		const rootLines = () =>
			auditNow(hub.sb).filter((e) => e.sessionId === rootId && e.event === "forwarded_ask");
		await expect.poll(() => rootLines().length, { timeout: 2_000 }).toBe(1);
		expect(rootLines()).toMatchObject([
			{
				outcome: "deny",
				source: { kind: "unavailable", reason: "the call was cancelled while the dialog was open" },
			},
		]);

		// The root's run goes on: the launcher reports the killed child, and the model echoes it.
		const run = await prompt;
		if (run instanceof Error) throw run;
		expect(JSON.stringify(run)).toContain("signal SIGKILL");
		// A late answer to the withdrawn dialog reaches no one: pi dropped the request when it was aborted.
		rpc.respond(dialog.request.id, { select: "Allow once" });
		await rpc.getState();
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
		expect(auditNow(hub.sb).filter((e) => e.outcome === "allow" && e.tool === "bash")).toEqual([]);
	});

	it("a grandchild waiting through a relay learns within 2 s that the root was killed", async () => {
		const { hub, rpc, prompt } = await waitingGrandchild();
		const rootPid = rpc.pid;
		if (rootPid === undefined) throw new Error("the root has no pid");

		const killedAt = Date.now();
		process.kill(rootPid, "SIGKILL");
		await prompt;

		await expect.poll(() => childRun(hub, "worker").sessionId, { timeout: 5_000 }).not.toBe("");
		const workerId = childRun(hub, "worker").sessionId;
		const workerLine = () =>
			auditNow(hub.sb).find((e) => e.sessionId === workerId && e.event === "tool_call");
		await expect.poll(workerLine, { timeout: 10_000, interval: 20 }).toBeDefined();
		const line = workerLine();
		if (!line) throw new Error("unreachable");
		const elapsed = Date.parse(line.time) - killedAt;
		console.log(
			`[liveness] root SIGKILLed → grandchild's unavailable decision (via relay) after ${elapsed} ms`,
		);
		expect(
			elapsed,
			`the grandchild took ${elapsed} ms (budget ${LIVENESS_BUDGET_MS} ms)`,
		).toBeLessThanOrEqual(LIVENESS_BUDGET_MS);
		const plannerId = childRun(hub, "planner").sessionId;
		expect(line).toMatchObject({
			outcome: "deny",
			source: { kind: "forwarded", responderSessionId: plannerId, decision: { kind: "unavailable" } },
		});
		await expect.poll(() => childRun(hub, "worker").toolResults.length, { timeout: 5_000 }).toBe(1);
		const [result] = childRun(hub, "worker").toolResults;
		expect(result?.text).toContain("no one could be asked");
		expect(result?.text).not.toMatch(USER_DENIAL);
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
	});

	it("a killed relay: the grandchild learns it and the root withdraws the relayed dialog, each within 2 s", async () => {
		const { hub, rpc, sessionId: rootId, prompt } = await waitingGrandchild();
		const relayPid = childPid(hub, "planner");
		if (relayPid === null) throw new Error("the planner wrote no pid");
		await expect.poll(() => childRun(hub, "worker").sessionId, { timeout: 5_000 }).not.toBe("");
		const workerId = childRun(hub, "worker").sessionId;

		const since = rpc.events.length;
		const killedAt = Date.now();
		process.kill(relayPid, "SIGKILL");
		await rpc.waitFor(pendingStatusCleared, 5_000, since);
		const withdrawnAfter = Date.now() - killedAt;
		const workerLine = () =>
			auditNow(hub.sb).find((e) => e.sessionId === workerId && e.event === "tool_call");
		await expect.poll(workerLine, { timeout: 10_000, interval: 20 }).toBeDefined();
		const line = workerLine();
		if (!line) throw new Error("unreachable");
		const noticedAfter = Date.parse(line.time) - killedAt;
		console.log(
			`[liveness] relay SIGKILLed → root withdrew after ${withdrawnAfter} ms, grandchild decided after ${noticedAfter} ms`,
		);
		expect(withdrawnAfter, `the root took ${withdrawnAfter} ms`).toBeLessThanOrEqual(LIVENESS_BUDGET_MS);
		expect(noticedAfter, `the grandchild took ${noticedAfter} ms`).toBeLessThanOrEqual(LIVENESS_BUDGET_MS);
		expect(line).toMatchObject({ outcome: "deny", source: { kind: "unavailable" } });
		expect(line.source.kind === "unavailable" && line.source.reason).toContain("went away");
		await expect
			.poll(() => auditNow(hub.sb).find((e) => e.sessionId === rootId && e.event === "forwarded_ask"), {
				timeout: 2_000,
			})
			.toMatchObject({ outcome: "deny", source: { kind: "unavailable" } });
		await expect.poll(() => childRun(hub, "worker").toolResults.length, { timeout: 5_000 }).toBe(1);
		expect(childRun(hub, "worker").toolResults[0]?.text).toContain("no one could be asked");
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
		const run = await prompt;
		if (run instanceof Error) throw run;
	});
});
