/**
 * A subagent with a UI of its own whose parent is gone (adr/0027): a real child pi in RPC mode (it has a UI)
 * started with `PI_SUBAGENT_PARENT_SESSION` naming a root that ran and quit. By default its risky call shows a
 * dialog in the child's own RPC stream; answered there, the call runs and the audit says the subagent's own human
 * decided. With `forwardWithUI: parent-only` no dialog shows: the ask is refused or parked, never a denial.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/audit/audit-entry.ts";
import { type DialogPolicy, never, pickOption } from "../harness/dialog-policy.ts";
import { type RpcSession, startRpc } from "../harness/rpc-session.ts";
import { USER_DENIAL, writeUserConfig } from "./gate-support.ts";
import {
	auditNow,
	cleanUpHubWorlds,
	type HubSandbox,
	RM_VICTIM,
	startRoot,
	victimSandbox,
} from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

/** A sandbox whose model removes the victim, and the id of a root session that ran in it and quit. */
async function parentGone(): Promise<{ hub: HubSandbox; rootId: string }> {
	const hub = await victimSandbox();
	const root = await startRoot(hub, never);
	await root.rpc.close();
	return { hub, rootId: root.sessionId };
}

async function startChild(hub: HubSandbox, rootId: string, dialog: DialogPolicy): Promise<RpcSession> {
	return startRpc({
		sandbox: hub.sb,
		extensions: [],
		env: { ...hub.env, PI_SUBAGENT_PARENT_SESSION: rootId },
		dialog,
		timeoutMs: 40_000,
	});
}

/** The child's one audit line for the call (the audit writer appends on the next tick: wait for it). */
async function toolCallLine(hub: HubSandbox): Promise<AuditEntry> {
	const lines = () => auditNow(hub.sb).filter((e) => e.event === "tool_call");
	await expect.poll(() => lines().length, { timeout: 5_000 }).toBe(1);
	const [line] = lines();
	if (!line) throw new Error("unreachable");
	return line;
}

describe("a subagent with its own UI whose parent is gone", () => {
	it("by default asks its own human: the dialog shows in the child's RPC stream and the answer runs the call", async () => {
		const { hub, rootId } = await parentGone();
		const child = await startChild(hub, rootId, pickOption("Allow once"));
		const { sessionId } = await child.getState();
		const run = await child.prompt("clean up");

		expect(run.dialogs).toHaveLength(1);
		const title = run.dialogs[0]?.request.title ?? "";
		expect(title).toContain(`bash: ${RM_VICTIM}`);
		expect(title).toContain("Requested by: subagent root ← subagent");
		expect(title).toContain(
			`Asked here: this subagent's parent cannot be asked (the parent session ${rootId} is not serving its inbox)`,
		);
		expect(run.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(false);

		const line = await toolCallLine(hub);
		expect(line).toMatchObject({
			sessionId,
			outcome: "allow",
			origin: { kind: "subagent" },
			source: {
				kind: "user",
				via: "dialog",
				verdict: "allow",
				scope: "once",
				parentUnreachable: `the parent session ${rootId} is not serving its inbox`,
			},
		});
	});

	it("with forwardWithUI parent-only: no dialog; refused at once as nobody could be asked, never a denial", async () => {
		const { hub, rootId } = await parentGone();
		await writeUserConfig(hub.sb, { forwardWithUI: "parent-only" });
		const child = await startChild(hub, rootId, never);
		const run = await child.prompt("clean up");

		expect(run.dialogs).toEqual([]);
		expect(run.toolResults).toMatchObject([{ toolName: "bash", isError: true }]);
		const text = run.toolResults[0]?.text ?? "";
		expect(text).toContain("no one could be asked");
		expect(text).toContain("is not serving its inbox");
		expect(text).not.toMatch(USER_DENIAL);
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
		expect(await toolCallLine(hub)).toMatchObject({ outcome: "deny", source: { kind: "unavailable" } });
	});

	it("with forwardWithUI parent-only and unanswered defer: no dialog; the ask is parked for a later approval", async () => {
		const { hub, rootId } = await parentGone();
		await writeUserConfig(hub.sb, { forwardWithUI: "parent-only", unanswered: "defer" });
		const child = await startChild(hub, rootId, never);
		const run = await child.prompt("clean up");

		expect(run.dialogs).toEqual([]);
		const text = run.toolResults[0]?.text ?? "";
		expect(text).toMatch(/is pending approval [0-9A-Z]{26}/);
		expect(text).not.toMatch(USER_DENIAL);
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
		const line = await toolCallLine(hub);
		expect(line).toMatchObject({ outcome: "pending", source: { kind: "unavailable" } });
		expect(
			existsSync(path.join(hub.sb.agentDir, "pi-permission-hub", "parked", `${line.requestId}.request.json`)),
		).toBe(true);
	});
});
