/**
 * A root that loaded the gate only with `-e`, with pi's example subagent extension (children are `pi` processes
 * that load the agent dir's settings, never the parent's `-e`): the delegation asks, naming the settings line to
 * add; with the package in settings the children are gated and no extra ask happens.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { bash } from "./gate-support.ts";
import { cleanUpHubWorlds, isForwarded, SUBAGENT_EXAMPLE } from "./hub-support.ts";
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

afterEach(cleanUpHubWorlds);

/** Children need the scripted model from settings; whether they also get the gate is the test's choice. */
async function processWorld(settings: Record<string, unknown>): Promise<SubagentWorld> {
	const world = await subagentWorld(settings);
	await world.sb.writeAgentFile(
		"agents/worker.md",
		"---\nname: worker\ndescription: test worker\nmodel: faux/faux-1\n---\nYou work.\n",
	);
	await writeScript(world.sb, {
		conversations: [
			conversationOf("[child]", [bash(RM)]),
			conversationOf(undefined, [{ tool: "subagent", input: { agent: "worker", task: "[child] clean up" } }]),
		],
	});
	return world;
}

const ROOT_EXTENSIONS = [EXTENSION_ENTRY, SUBAGENT_EXAMPLE];

describe("pi's example subagent launcher, root gated only by -e", () => {
	it(
		"without the package in settings the delegation asks with the line to add; Deny keeps the child from running",
		async () => {
			const world = await processWorld({ extensions: [FAUX_MODEL_EXTENSION] });
			const { rpc, rootId } = await startRoot(
				world,
				answer(() => "Deny"),
				ROOT_EXTENSIONS,
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(victimExists(world)).toBe(true);
			expect(run.dialogs).toHaveLength(1);
			const text = run.dialogs[0]?.request.title ?? "";
			expect(text).toContain(
				"a subagent runs as a separate pi process, which does not inherit this session's -e flags",
			);
			const fix = `add "${GATE_DIR}" to \`packages\` in ${world.settingsFile}`;
			expect(text).toContain(fix);
			const result = run.toolResults.find((r) => r.toolName === "subagent");
			expect(result?.text).toContain(`To fix it, ${fix}`);
			const entries = await auditWhen(world, (all) => all.length >= 1);
			expect(entries).toHaveLength(1);
			expect(entries[0]).toMatchObject({
				sessionId: rootId,
				tool: "subagent",
				outcome: "deny",
				chain: [{ link: GUARD_STEP }],
			});
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"with the package in settings `packages` (relative to the agent dir, as `pi install` writes it) there is no extra ask",
		async () => {
			const world = await processWorld({ extensions: [FAUX_MODEL_EXTENSION] });
			// The relative entry depends on where the sandbox's agent dir is, so it is written once that is known.
			await world.sb.writeSettings({
				extensions: [FAUX_MODEL_EXTENSION],
				packages: [path.relative(world.sb.agentDir, REPO_ROOT)],
			});
			const { rpc } = await startRoot(
				world,
				answer(() => "Allow once"),
				ROOT_EXTENSIONS,
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([false, false]);
			expect(run.dialogs.map((d) => isForwarded(d.request))).toEqual([false, true]);
			expect(run.dialogs[1]?.request.title).toContain(`bash: ${RM}`);
			expect(victimExists(world)).toBe(false);
			expect(warningsOf(rpc)).toEqual([]);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
