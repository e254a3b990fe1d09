/**
 * A child that cannot reach any parent never hangs: marked as a subagent with no parent variable, naming a parent
 * session nobody serves, or inheriting the variable of a root that was killed, its ask is settled at once as
 * parked or unavailable, and never presented as a user's denial.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/audit/audit-entry.ts";
import { never } from "../harness/dialog-policy.ts";
import { runPrint } from "../harness/print-run.ts";
import { USER_DENIAL } from "./gate-support.ts";
import { auditNow, cleanUpHubWorlds, type HubSandbox, startRoot, victimSandbox } from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

/** The hub's promise for noticing a missing parent. */
const DECISION_BUDGET_MS = 2_000;

/** Runs the child in JSON mode with `env`; returns its tool result text and its one audit line. */
async function runChild(
	hub: HubSandbox,
	env: Record<string, string>,
): Promise<{ text: string; line: AuditEntry }> {
	const run = await runPrint({
		sandbox: hub.sb,
		prompt: "clean up",
		mode: "json",
		env: { ...hub.env, ...env },
		timeoutMs: 20_000,
	});
	expect(run.code, run.stderr).toBe(0);
	expect(run.toolResults).toHaveLength(1);
	const text = run.toolResults[0]?.text ?? "";
	expect(run.toolResults[0]?.isError).toBe(true);
	expect(text).not.toMatch(USER_DENIAL);
	expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
	const lines = auditNow(hub.sb).filter((e) => e.event === "tool_call");
	expect(lines, `tool result: ${text}\nstderr: ${run.stderr}`).toHaveLength(1);
	const [line] = lines;
	if (!line) throw new Error("unreachable");
	console.log(`[orphan] ${Object.keys(env).join("+")}: decided in ${line.latencyMs} ms (${line.outcome})`);
	expect(line.latencyMs).toBeLessThan(DECISION_BUDGET_MS);
	return { text, line };
}

describe("a child with no reachable parent", () => {
	it("marked as a subagent (PI_SUBAGENT_CHILD=1) with no parent variable: parked at once", async () => {
		const hub = await victimSandbox();
		const { text, line } = await runChild(hub, { PI_SUBAGENT_CHILD: "1" });
		expect(text).toMatch(/is pending approval [0-9A-Z]{26}/);
		expect(text).toContain("this is not a denial");
		expect(line).toMatchObject({
			outcome: "pending",
			origin: { kind: "subagent" },
			source: { kind: "unavailable" },
		});
		expect(line.requestId).toMatch(/^[0-9A-Z]{26}$/);
		expect(
			existsSync(path.join(hub.sb.agentDir, "pi-permission-hub", "parked", `${line.requestId}.request.json`)),
		).toBe(true);
	});

	it("naming a parent session nobody serves (PI_SUBAGENT_PARENT_SESSION): unavailable at once", async () => {
		const hub = await victimSandbox();
		const { text, line } = await runChild(hub, {
			PI_SUBAGENT_PARENT_SESSION: "0190c0de-0000-7000-8000-000000000000",
		});
		expect(text).toContain("no one could be asked");
		expect(text).toContain("is not serving its inbox");
		expect(line).toMatchObject({ outcome: "deny", source: { kind: "unavailable" } });
	});

	it("inheriting the hub variable of a root that was killed: unavailable at once", async () => {
		const hub = await victimSandbox();
		const root = await startRoot(hub, never);
		const pid = root.rpc.pid;
		if (pid === undefined) throw new Error("the root has no pid");
		const link = {
			v: 1,
			sessionId: root.sessionId,
			inbox: path.join(hub.sb.agentDir, "pi-permission-hub", "inbox", root.sessionId),
			pid,
			path: ["root"],
		};
		expect(existsSync(path.join(link.inbox, "server.json"))).toBe(true);
		process.kill(pid, "SIGKILL");
		await root.rpc.exited;

		const { text, line } = await runChild(hub, { PI_PERMISSION_HUB_PARENT: JSON.stringify(link) });
		expect(text).toContain("no one could be asked");
		expect(text).toContain(`(pid ${pid}) is gone`);
		expect(line).toMatchObject({ outcome: "deny", source: { kind: "unavailable" } });
	});
});
