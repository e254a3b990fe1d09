/**
 * A child pi's risky call reaches the root's human: real root (RPC, the test answers its dialogs), real child
 * processes started the two ways launchers start them, real files, and the audit lines both sides write.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/audit/audit-entry.ts";
import { scripted } from "../harness/dialog-policy.ts";
import { USER_DENIAL } from "./gate-support.ts";
import {
	auditNow,
	bashCall,
	childParentVariables,
	childRun,
	cleanUpHubWorlds,
	conversation,
	type HubSandbox,
	hubSandbox,
	isForwarded,
	launch,
	optionStarting,
	rootAllowsOwn,
	SUBAGENT_EXAMPLE,
	startRoot,
	unwrap,
	writeTree,
} from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

const RM = "rm -f victim.txt";

async function victimTree(rootCalls: Parameters<typeof conversation>[1][]): Promise<HubSandbox> {
	const hub = await hubSandbox();
	await hub.sb.writeWorkFile("victim.txt", "keep me");
	await writeTree(hub.sb, [conversation("[child]", [bashCall(RM)]), conversation(undefined, ...rootCalls)]);
	return hub;
}

/** The child's tool_call line and the root's forwarded_ask line for the same action, once both are written. */
async function auditPair(hub: HubSandbox, rootId: string): Promise<{ child: AuditEntry; root: AuditEntry }> {
	const find = () => {
		const entries = auditNow(hub.sb);
		const child = entries.find((e) => e.event === "tool_call" && e.tool === "bash" && e.sessionId !== rootId);
		const root = entries.find((e) => e.event === "forwarded_ask" && e.sessionId === rootId);
		return child && root ? { child, root } : null;
	};
	await expect.poll(find, { timeout: 5_000, interval: 50 }).not.toBeNull();
	const pair = find();
	if (!pair) throw new Error("unreachable");
	return pair;
}

describe("a child started by pi's example subagent extension (environment inherited)", () => {
	it("Allow once at the root deletes the file; both audit lines name who decided", async () => {
		const hub = await victimTree([
			[{ tool: "subagent", input: { agent: "worker", task: "[child] clean up" } }],
		]);
		const { rpc, sessionId: rootId } = await startRoot(hub, rootAllowsOwn(optionStarting("Allow once")), {
			extensions: [SUBAGENT_EXAMPLE],
		});

		const run = await rpc.prompt("delegate the clean-up");

		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(false);
		const forwarded = run.dialogs.filter((d) => isForwarded(d.request));
		expect(forwarded).toHaveLength(1);
		const request = forwarded[0]?.request;
		if (request?.method !== "select") throw new Error("expected a select dialog");
		expect(request.title).toContain("Permission needed: bash (destructive)");
		expect(request.title).toContain(`bash: ${RM}`);
		expect(request.title).toContain("Tier: destructive");
		expect(request.title).toContain(
			"Requested by: subagent root ← worker? (? = the agent its parent's delegation call named: a guess)",
		);
		expect(request.options).toEqual([
			"Allow once",
			`Allow for this subagent: ${RM}`,
			`Allow for the whole tree: ${RM}`,
			"Deny",
			"Deny with a reason…",
			`Always deny in ${hub.sb.workDir}: ${RM}`,
		]);

		const { child, root } = await auditPair(hub, rootId);
		expect(child).toMatchObject({
			event: "tool_call",
			origin: { kind: "subagent", path: ["root", "subagent"] },
			tier: "destructive",
			outcome: "allow",
			source: {
				kind: "forwarded",
				responderSessionId: rootId,
				decision: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
			},
		});
		expect(root).toMatchObject({
			event: "forwarded_ask",
			origin: { kind: "subagent", path: ["root", "subagent"] },
			actionHash: child.actionHash,
			outcome: "allow",
			source: { kind: "user", verdict: "allow" },
		});
		expect(root.requestId).toMatch(/^[0-9A-Z]{26}$/);
	});

	it("Deny at the root keeps the file; the child is told the user denied it", async () => {
		const hub = await victimTree([
			[{ tool: "subagent", input: { agent: "worker", task: "[child] clean up" } }],
		]);
		const { rpc, sessionId: rootId } = await startRoot(hub, rootAllowsOwn(optionStarting("Deny")), {
			extensions: [SUBAGENT_EXAMPLE],
		});

		const run = await rpc.prompt("delegate the clean-up");

		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
		expect(run.dialogs.filter((d) => isForwarded(d.request))).toHaveLength(1);
		expect(run.finalText).toContain("The user denied this bash call (rm -f victim.txt)");
		const { child, root } = await auditPair(hub, rootId);
		expect(child).toMatchObject({
			outcome: "deny",
			source: {
				kind: "forwarded",
				responderSessionId: rootId,
				decision: { kind: "user", verdict: "deny" },
			},
		});
		expect(root).toMatchObject({ outcome: "deny", actionHash: child.actionHash, source: { kind: "user" } });
	});
});

describe("a child that only has PI_SUBAGENT_PARENT_SESSION (the fallback, no hub variable)", () => {
	it("deny keeps the file, then allow deletes it; each child records the root as responder", async () => {
		const hub = await hubSandbox();
		await hub.sb.writeWorkFile("victim.txt", "keep me");
		await writeTree(hub.sb, [
			conversation("[child]", [bashCall(RM)]),
			conversation(
				undefined,
				[launch("first", "[child] clean up", { link: "subagent-session", name: "fallback-worker" })],
				[launch("second", "[child] clean up", { link: "subagent-session", name: "fallback-worker" })],
			),
		]);
		const { rpc, sessionId: rootId } = await startRoot(
			hub,
			rootAllowsOwn(scripted([{ select: "Deny" }, { select: "Allow once" }])),
		);

		await rpc.prompt("delegate twice");

		for (const label of ["first", "second"]) {
			expect(childParentVariables(hub, label)).toEqual({
				PI_SUBAGENT_PARENT_SESSION: rootId,
				PI_SUBAGENT_CHILD_AGENT: "fallback-worker",
			});
		}
		const first = childRun(hub, "first");
		const second = childRun(hub, "second");
		expect(first.toolResults).toMatchObject([{ toolName: "bash", isError: true }]);
		expect(first.toolResults[0]?.text).toContain("The user denied");
		expect(second.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(false);

		const dialogs = rpc.dialogs.filter((d) => isForwarded(d.request));
		expect(dialogs).toHaveLength(2);
		for (const d of dialogs)
			expect(d.request.title).toContain("Requested by: subagent root ← fallback-worker");

		await expect
			.poll(() => auditNow(hub.sb).filter((e) => e.event === "tool_call" && e.tool === "bash").length, {
				timeout: 5_000,
			})
			.toBe(2);
		const entries = auditNow(hub.sb);
		const childLine = (sessionId: string) => {
			const line = entries.find((e) => e.event === "tool_call" && e.sessionId === sessionId);
			if (!line) throw new Error(`no tool_call line of child ${sessionId}`);
			return line;
		};
		const denied = childLine(first.sessionId);
		const allowed = childLine(second.sessionId);
		expect(denied).toMatchObject({ outcome: "deny", origin: { path: ["root", "fallback-worker"] } });
		expect(unwrap(denied.source)).toMatchObject({
			responders: [rootId],
			decided: { kind: "user", verdict: "deny" },
		});
		expect(allowed).toMatchObject({ outcome: "allow" });
		expect(unwrap(allowed.source)).toMatchObject({
			responders: [rootId],
			decided: { kind: "user", verdict: "allow" },
		});
		const rootLines = entries.filter((e) => e.event === "forwarded_ask" && e.sessionId === rootId);
		expect(rootLines.map((e) => e.outcome)).toEqual(["deny", "allow"]);
		expect(first.toolResults[0]?.text).not.toMatch(/no one could be asked/);
		expect(second.finalText).not.toMatch(USER_DENIAL);
	});
});
