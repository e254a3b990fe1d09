/**
 * Every policy example the docs show, in force at a real root with pi's example subagent launcher (the demo's
 * setup): the delegation still reaches the child, and the child's risky call still reaches the root's dialog.
 * A policy that tightens `privileged` must not switch subagents off by accident (a gated delegation is `spend`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { userConfigPath } from "../../src/policy/config-paths.ts";
import { bash } from "../e2e/gate-support.ts";
import { cleanUpHubWorlds, isForwarded, SUBAGENT_EXAMPLE } from "../e2e/hub-support.ts";
import {
	answer,
	conversationOf,
	RM,
	SUBAGENT_TEST_TIMEOUT,
	startRoot,
	subagentWorld,
	victimExists,
} from "../e2e/subagents-support.ts";
import { writeScript } from "../harness/faux-script.ts";
import { FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { configBlocks } from "./markdown-blocks.ts";

afterEach(cleanUpHubWorlds);

const DOCS = ["README.md", path.join("docs", "configuration.md")];
const examples = DOCS.flatMap((file) =>
	configBlocks(readFileSync(path.join(REPO_ROOT, file), "utf8"))
		// A project file is read only in a trusted project; the user file is what every session loads.
		.filter((block) => !block.text.includes("project-config.schema.json"))
		.map((block) => ({ name: `${file}:${block.line}`, text: block.text })),
);

describe("the docs' policy examples keep subagents working", () => {
	it("there are examples to check, among them one that denies the privileged tier", () => {
		expect(examples.map((e) => e.name)).toEqual(
			expect.arrayContaining([expect.stringMatching(/^README\.md:/)]),
		);
		expect(examples.some((e) => /"privileged":\s*"deny"/.test(e.text))).toBe(true);
	});

	it.each(examples)(
		"$name: the delegation asks (spend), the child starts, and its rm is forwarded to the root",
		async ({ text }) => {
			// The package is installed (children load it from settings), as the README tells users to.
			const world = await subagentWorld({ extensions: [FAUX_MODEL_EXTENSION], packages: [REPO_ROOT] });
			await world.sb.writeAgentFile(
				"agents/worker.md",
				"---\nname: worker\ndescription: test worker\nmodel: faux/faux-1\n---\nYou work.\n",
			);
			await world.sb.writeAgentFile(
				path.relative(world.sb.agentDir, userConfigPath(world.sb.agentDir)),
				text,
			);
			await writeScript(world.sb, {
				conversations: [
					conversationOf("[child]", [bash(RM)]),
					conversationOf(undefined, [
						{ tool: "subagent", input: { agent: "worker", task: "[child] clean up" } },
					]),
				],
			});
			const { rpc } = await startRoot(
				world,
				answer(() => "Allow once"),
				[SUBAGENT_EXAMPLE],
			);

			const run = await rpc.prompt("delegate the clean-up");

			const [own, forwarded] = run.dialogs.map((d) => d.request);
			expect(own?.title).toMatch(/^Permission needed: subagent \(spend\)/);
			expect(
				forwarded && isForwarded(forwarded),
				JSON.stringify(run.dialogs.map((d) => d.request.title)),
			).toBe(true);
			expect(forwarded?.title).toContain(`bash: ${RM}`);
			// Allowed at the root: the child's rm ran (or, under "unanswered": "defer", was parked for later).
			const child = run.toolResults.find((r) => r.toolName === "subagent");
			expect(child?.isError, child?.text).toBe(false);
			if (!text.includes('"unanswered": "defer"')) expect(victimExists(world)).toBe(false);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
