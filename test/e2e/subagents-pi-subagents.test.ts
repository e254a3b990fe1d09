/**
 * The real pi-subagents launcher (in-process foreground children) with a root pi in RPC mode: with the gate in
 * the children's extensions, a child's risky call reaches the root's human; without it, the delegation itself
 * asks (or, headless, is refused) with the exact settings change.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/audit/audit-entry.ts";
import { writeScript } from "../harness/faux-script.ts";
import { runPrint } from "../harness/print-run.ts";

import { bash, stopRpcAndCleanUp, writeUserConfig } from "./gate-support.ts";
import { isForwarded, unwrap } from "./hub-support.ts";
import {
	announcements,
	answer,
	auditWhen,
	conversationOf,
	delegate,
	GATE_DIR,
	GATED_CHILDREN,
	GUARD_STEP,
	GUARD_WHY,
	isGuardAsk,
	piSubagentsSettings,
	RM,
	SUBAGENT_TEST_TIMEOUT,
	type SubagentWorld,
	sandboxNoticesOf,
	startRoot,
	subagentWorld,
	UNGATED_CHILDREN,
	victimExists,
	warningsOf,
} from "./subagents-support.ts";

afterEach(stopRpcAndCleanUp);

async function delegationWorld(childExtensions: readonly string[]): Promise<SubagentWorld> {
	const world = await subagentWorld(piSubagentsSettings(childExtensions));
	await writeScript(world.sb, {
		conversations: [
			conversationOf("CHILD-TASK", [bash(RM)]),
			conversationOf(undefined, [delegate("delegate", "CHILD-TASK delete victim.txt")]),
		],
	});
	return world;
}

function rootSubagentLine(entries: readonly AuditEntry[], rootId: string): AuditEntry | undefined {
	return entries.find((e) => e.sessionId === rootId && e.event === "tool_call" && e.tool === "subagent");
}

describe("pi-subagents children with the gate in subagents.defaultExtensions", () => {
	it(
		"the child's rm reaches the root's dialog naming the agent; Allow deletes; the audit shows the chain",
		async () => {
			const world = await delegationWorld(GATED_CHILDREN);
			const { rpc, rootId } = await startRoot(
				world,
				answer(() => "Allow once"),
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(victimExists(world)).toBe(false);
			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([false, false]);
			const [own, forwarded] = run.dialogs.map((d) => d.request);
			expect(own?.title).toContain("Permission needed: subagent (spend)");
			expect(forwarded && isForwarded(forwarded)).toBe(true);
			expect(forwarded?.title).toContain(`bash: ${RM}`);
			expect(forwarded?.title).toContain("Requested by: subagent root ← delegate");

			const entries = await auditWhen(world, (all) => all.length >= 3);
			const child = entries.find((e) => e.event === "tool_call" && e.tool === "bash");
			expect(child?.sessionId).not.toBe(rootId);
			expect(child).toMatchObject({
				outcome: "allow",
				origin: { kind: "subagent", name: "delegate", depth: 1, path: ["root", "delegate"] },
			});
			expect(unwrap(child?.source ?? { kind: "gate_error", reason: "none" })).toEqual({
				responders: [rootId],
				decided: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
			});
			expect(entries.find((e) => e.event === "forwarded_ask")).toMatchObject({
				sessionId: rootId,
				tool: "bash",
				actionHash: child?.actionHash,
				outcome: "allow",
			});
			expect(rootSubagentLine(entries, rootId)?.chain ?? []).toEqual([]);

			// The child announced itself to the root (kept, marked ended), so the root knows it was gated.
			expect(announcements(world, rootId)).toEqual([
				expect.objectContaining({
					sessionId: child?.sessionId,
					agent: "delegate",
					path: ["root", "delegate"],
					inProcess: true,
					endedAt: expect.any(String),
				}),
			]);
			expect(warningsOf(rpc)).toEqual([]);
			// pi-subagents needs pi's own bash in the root; the gate rewrites the root's commands into the sandbox,
			// so nothing runs unsandboxed and there is nothing to warn about (before, the root's bash ran unconfined).
			expect(sandboxNoticesOf(rpc)).toEqual([]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"Deny at the root keeps the file; the child is told the user denied it",
		async () => {
			const world = await delegationWorld(GATED_CHILDREN);
			const { rpc, rootId } = await startRoot(
				world,
				answer((request) => (isForwarded(request) ? "Deny" : "Allow once")),
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(victimExists(world)).toBe(true);
			expect(run.dialogs).toHaveLength(2);
			expect(run.finalText).toContain(`The user denied this bash call (${RM})`);
			const entries = await auditWhen(world, (all) =>
				all.some((e) => e.tool === "bash" && e.event === "tool_call"),
			);
			const child = entries.find((e) => e.event === "tool_call" && e.tool === "bash");
			expect(child).toMatchObject({
				outcome: "deny",
				source: { kind: "forwarded", responderSessionId: rootId },
			});
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});

describe("pi-subagents children without the gate: the delegation itself is guarded", () => {
	it(
		"asks with the exact settings change even when an allow rule approves the call; Deny means the child never runs",
		async () => {
			const world = await delegationWorld(UNGATED_CHILDREN);
			// Without the guard, this rule would let the delegation run without any dialog.
			await writeUserConfig(world.sb, {
				toolTiers: { subagent: "write" },
				rules: [{ surface: "tool", pattern: "subagent", action: "allow" }],
			});
			const { rpc, rootId } = await startRoot(
				world,
				answer(() => "Deny"),
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(victimExists(world)).toBe(true);
			expect(run.dialogs).toHaveLength(1);
			const text = run.dialogs[0]?.request.title ?? "";
			const fix = `add "${GATE_DIR}" to \`subagents.defaultExtensions\` in ${world.settingsFile}`;
			expect(text).toContain(`Why: ${GUARD_WHY}: pi-subagents runs agent "delegate" inside this process`);
			expect(text).toContain(fix);
			expect(run.dialogs[0]?.request.method === "select" && run.dialogs[0].request.options).toEqual([
				`Add the gate to ${world.settingsFile} and continue`,
				"Allow once",
				"Deny",
				"Deny with a reason…",
			]);
			const result = run.toolResults.find((r) => r.toolName === "subagent");
			expect(result?.isError).toBe(true);
			expect(result?.text).toContain("The user denied this subagent call");
			expect(result?.text).toContain("The subagent would have run without permission checks");
			expect(result?.text).toContain(`To fix it, ${fix}`);

			const [line] = await auditWhen(world, (all) => all.length >= 1);
			expect(line).toMatchObject({
				sessionId: rootId,
				tool: "subagent",
				mode: "ask",
				outcome: "deny",
				source: { kind: "user", verdict: "deny" },
				chain: [{ link: GUARD_STEP, result: "defer" }],
			});
			expect(line?.reason).toContain(fix);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"Add the gate and continue: the settings change doctor --fix makes is written, and the child's rm reaches the root's dialog",
		async () => {
			const world = await delegationWorld(UNGATED_CHILDREN);
			const before = readFileSync(world.settingsFile, "utf8");
			const { rpc, rootId } = await startRoot(
				world,
				answer((request) => (isGuardAsk(request) ? "Add the gate to" : "Deny")),
			);

			const run = await rpc.prompt("delegate the clean-up");

			// The guard's dialog, then the child's own rm, asked at the root and denied there.
			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([true, false]);
			const forwarded = run.dialogs[1]?.request;
			expect(forwarded && isForwarded(forwarded)).toBe(true);
			expect(forwarded?.title).toContain(`bash: ${RM}`);
			expect(victimExists(world)).toBe(true);
			// Exactly doctor's change: the gate appended to the list, the rest of the file as it was.
			const after = readFileSync(world.settingsFile, "utf8");
			expect(JSON.parse(after)).toEqual({
				...JSON.parse(before),
				subagents: { defaultExtensions: [...UNGATED_CHILDREN, GATE_DIR] },
			});
			expect(announcements(world, rootId)).toEqual([expect.objectContaining({ agent: "delegate" })]);
			expect(warningsOf(rpc)).toEqual([]);
			const entries = await auditWhen(world, (all) => all.some((e) => e.tool === "bash"));
			expect(rootSubagentLine(entries, rootId)).toMatchObject({
				outcome: "allow",
				source: { kind: "user", verdict: "allow" },
				chain: [{ link: GUARD_STEP, result: "defer" }],
			});
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"Add the gate and continue fails closed: a settings file changed since the check is not written over, and the delegation is blocked",
		async () => {
			const world = await delegationWorld(UNGATED_CHILDREN);
			// Changed while the dialog is open (after the check, before the write): the writer refuses to write over
			// what it did not check.
			const original = readFileSync(world.settingsFile, "utf8");
			const pick = answer(() => "Add the gate to");
			const { rpc } = await startRoot(world, (request) => {
				writeFileSync(world.settingsFile, `${original}\n`);
				return pick(request);
			});

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs).toHaveLength(1);
			expect(victimExists(world)).toBe(true);
			const result = run.toolResults.find((r) => r.toolName === "subagent");
			expect(result?.isError).toBe(true);
			expect(result?.text).toContain("the user chose to add the gate to the settings and continue, but");
			expect(result?.text).toContain("changed while it was being checked; nothing was written");
			expect(readFileSync(world.settingsFile, "utf8")).toBe(`${original}\n`);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"Allow runs the child without the gate (its rm is never asked), and the root warns afterwards",
		async () => {
			const world = await delegationWorld(UNGATED_CHILDREN);
			const { rpc, rootId } = await startRoot(
				world,
				answer(() => "Allow once"),
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([true]);
			expect(victimExists(world)).toBe(false);
			expect(announcements(world, rootId)).toEqual([]);
			expect(warningsOf(rpc)).toEqual([
				expect.stringContaining(
					"pi-permission-hub: the subagent ran without the permission gate — no gated child announced itself during this subagent call.",
				),
			]);
			const [line] = await auditWhen(world, (all) => all.length >= 1);
			expect(line).toMatchObject({ tool: "subagent", outcome: "allow", chain: [{ link: GUARD_STEP }] });
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"a deny still denies outright, with no dialog and no guard text",
		async () => {
			const world = await delegationWorld(UNGATED_CHILDREN);
			// An agent-rule deny reaches the gate's decision (a `tool` deny rule would hide the tool instead).
			await writeUserConfig(world.sb, { agentRules: { deny: [{ kind: "human" }] } });
			const { rpc } = await startRoot(
				world,
				answer(() => "Allow once"),
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs).toEqual([]);
			expect(victimExists(world)).toBe(true);
			const result = run.toolResults.find((r) => r.toolName === "subagent");
			expect(result?.text).toContain("which agentRules.deny in");
			expect(result?.text).not.toContain("permission checks");
			const [line] = await auditWhen(world, (all) => all.length >= 1);
			expect(line).toMatchObject({
				tool: "subagent",
				mode: "deny",
				outcome: "deny",
				source: { kind: "rule" },
			});
			expect(line?.chain).toBeUndefined();
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"a headless root refuses the delegation without parking it, naming the settings change",
		async () => {
			const world = await delegationWorld(UNGATED_CHILDREN);

			const run = await runPrint({
				sandbox: world.sb,
				extensions: GATED_CHILDREN.slice(1),
				prompt: "delegate the clean-up",
				timeoutMs: 120_000,
			});

			expect(run.code).toBe(0);
			expect(victimExists(world)).toBe(true);
			expect(run.stdout).toContain("would start a subagent that runs without permission checks");
			expect(run.stdout).toContain("This is a configuration problem, not a denial of the task.");
			expect(run.stdout).toContain(`add \\"${GATE_DIR}\\" to \`subagents.defaultExtensions\``);
			const [line] = await auditWhen(world, (all) => all.length >= 1);
			expect(line).toMatchObject({
				tool: "subagent",
				outcome: "deny",
				source: { kind: "unavailable" },
				chain: [{ link: GUARD_STEP }],
			});
			expect(line?.requestId).toBeUndefined();
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
