/**
 * The real @tintinweb/pi-subagents launcher (its `Agent` tool runs children inside the root's process, each with
 * a fresh resource loader over the agent dir) with a root pi in RPC mode: installed in the agent dir, the gate
 * is in every child; given only with -e, it is in none, so the delegation asks — and "Add the gate to <file> and
 * continue" installs it there, after which the child's rm reaches the root's dialog.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FauxToolCall } from "../harness/faux-script.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { killAllRpc } from "../harness/rpc-session.ts";
import { bash, stopRpcAndCleanUp } from "./gate-support.ts";
import { isForwarded } from "./hub-support.ts";
import {
	answer,
	auditWhen,
	conversationOf,
	GATE_DIR,
	GUARD_STEP,
	isGuardAsk,
	RM,
	SUBAGENT_TEST_TIMEOUT,
	type SubagentWorld,
	startRoot,
	subagentWorld,
	victimExists,
	warningsOf,
} from "./subagents-support.ts";

const TINTINWEB = path.join(REPO_ROOT, "node_modules", "@tintinweb", "pi-subagents");

afterEach(stopRpcAndCleanUp);

function agentCall(extra: Record<string, unknown> = {}): FauxToolCall {
	return {
		tool: "Agent",
		input: {
			subagent_type: "general-purpose",
			description: "clean up",
			prompt: "CHILD-TASK delete victim.txt",
			...extra,
		},
	};
}

async function world(packages: readonly string[], call = agentCall()): Promise<SubagentWorld> {
	// The children need the scripted model's provider too: they load only what the agent dir loads.
	const made = await subagentWorld({ packages: [...packages], extensions: [FAUX_MODEL_EXTENSION] });
	await writeScript(made.sb, {
		conversations: [conversationOf("CHILD-TASK", [bash(RM)]), conversationOf(undefined, [call])],
	});
	return made;
}

function optionsOf(request: { method: string; options?: readonly string[] } | undefined): readonly string[] {
	return request?.method === "select" ? (request.options ?? []) : [];
}

describe("@tintinweb/pi-subagents: in-process children load what the agent dir loads", () => {
	it(
		"the gate installed in the agent dir: the child's rm reaches the root's dialog, and Deny keeps the file",
		async () => {
			const made = await world([TINTINWEB, REPO_ROOT]);
			const { rpc, rootId } = await startRoot(
				made,
				answer((request) => (isForwarded(request) ? "Deny" : "Allow once")),
				[],
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([false, false]);
			const [own, forwarded] = run.dialogs.map((d) => d.request);
			expect(own?.title).toContain("Permission needed: Agent (spend)");
			expect(forwarded?.title).toContain(`bash: ${RM}`);
			expect(victimExists(made)).toBe(true);
			const entries = await auditWhen(made, (all) =>
				all.some((e) => e.tool === "bash" && e.event === "tool_call"),
			);
			const child = entries.find((e) => e.tool === "bash" && e.event === "tool_call");
			expect(child?.sessionId).not.toBe(rootId);
			expect(child).toMatchObject({
				outcome: "deny",
				source: { kind: "forwarded", responderSessionId: rootId },
			});
			expect(warningsOf(rpc)).toEqual([]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"the gate only with -e: the delegation asks; Add the gate and continue installs it, and the child is gated",
		async () => {
			const made = await world([TINTINWEB]);
			const { rpc } = await startRoot(
				made,
				answer((request) => (isGuardAsk(request) ? "Add the gate to" : "Deny")),
				[EXTENSION_ENTRY],
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([true, false]);
			const guard = run.dialogs[0]?.request;
			expect(guard?.title).toContain("@tintinweb/pi-subagents runs a subagent inside this process");
			expect(optionsOf(guard)[0]).toBe(`Add the gate to ${made.settingsFile} and continue`);
			expect(run.dialogs[1]?.request.title).toContain(`bash: ${RM}`);
			expect(victimExists(made)).toBe(true);
			const [line] = await auditWhen(made, (all) => all.some((e) => e.tool === "Agent"));
			expect(line).toMatchObject({ tool: "Agent", outcome: "allow", chain: [{ link: GUARD_STEP }] });
			const { packages } = JSON.parse(readFileSync(made.settingsFile, "utf8"));
			expect(packages).toEqual([TINTINWEB, GATE_DIR]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"`isolated: true` runs the child with no extension: the delegation asks, and no settings fix is offered",
		async () => {
			const made = await world([TINTINWEB, REPO_ROOT], agentCall({ isolated: true }));
			const { rpc } = await startRoot(
				made,
				answer(() => "Deny"),
				[],
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([true]);
			expect(run.dialogs[0]?.request.title).toContain("`isolated: true`");
			expect(optionsOf(run.dialogs[0]?.request)).toEqual(["Allow once", "Deny", "Deny with a reason…"]);
			expect(victimExists(made)).toBe(true);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"an agent file's `run_in_background: true` runs the child in the background: allowed ungated, it is not watched, so no wrong warning",
		async () => {
			const made = await world([TINTINWEB], agentCall({ subagent_type: "digger" }));
			await made.sb.writeWorkFile(
				".pi/agents/digger.md",
				"---\ndescription: digs\nrun_in_background: true\n---\nDig.\n",
			);
			const { rpc } = await startRoot(
				made,
				answer((request) => (isGuardAsk(request) ? "Allow once" : "Deny")),
				[EXTENSION_ENTRY],
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([true]);
			// The child did run (ungated, as allowed), after the call had returned.
			await expect.poll(() => victimExists(made), { timeout: 30_000 }).toBe(false);
			expect(warningsOf(rpc)).toEqual([]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
	it(
		"an agent file's `extensions:` keeps the gate by either name the launcher gives it, `pi-permission-hub` (its package's) or `extension` (its directory's): with either the child is gated; with neither the guard asks, and the child indeed runs ungated",
		async () => {
			// The children also need the scripted model's provider, which the list must keep by its name too.
			const agent = (list: string): string => `---\ndescription: digs\nextensions: ${list}\n---\nDig.\n`;
			for (const name of ["pi-permission-hub", "extension"]) {
				const kept = await world([TINTINWEB, REPO_ROOT], agentCall({ subagent_type: "digger" }));
				await kept.sb.writeWorkFile(".pi/agents/digger.md", agent(`faux-model-extension, ${name}`));
				const gated = await startRoot(
					kept,
					answer((request) => (isForwarded(request) ? "Deny" : "Allow once")),
					[],
				);
				const keptRun = await gated.rpc.prompt("delegate the clean-up");
				// No guard ask; the child's rm reaches the root, which denies it.
				expect(
					keptRun.dialogs.map((d) => isGuardAsk(d.request)),
					name,
				).toEqual([false, false]);
				expect(keptRun.dialogs[1]?.request.title, name).toContain(`bash: ${RM}`);
				expect(victimExists(kept), name).toBe(true);
				await killAllRpc();
			}

			const dropped = await world([TINTINWEB, REPO_ROOT], agentCall({ subagent_type: "digger" }));
			await dropped.sb.writeWorkFile(".pi/agents/digger.md", agent("faux-model-extension, permission-hub"));
			const ungated = await startRoot(
				dropped,
				answer((request) => (isGuardAsk(request) ? "Allow once" : "Deny")),
				[],
			);
			const droppedRun = await ungated.rpc.prompt("delegate the clean-up");
			expect(droppedRun.dialogs.map((d) => isGuardAsk(d.request))).toEqual([true]);
			expect(droppedRun.dialogs[0]?.request.title).toContain('add "pi-permission-hub"');
			// Allowed once, the child's rm ran with nobody asked: it had no gate.
			expect(victimExists(dropped)).toBe(false);
		},
		SUBAGENT_TEST_TIMEOUT * 3,
	);
});
