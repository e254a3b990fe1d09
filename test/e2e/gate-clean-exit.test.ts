/**
 * pi ends the way it would without the gate: a run that ends before the gate's background work is done (the
 * sandbox probe, ~0.5 s) and a session whose in-process subagents the launcher disposed both exit 0, with
 * nothing from the gate on stderr. Each of these once ended pi with a stack trace ("This extension ctx is stale
 * after session replacement or reload"), the first on a new user's very first `pi -p`.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import { cleanupSandboxes, gateSandbox } from "./gate-support.ts";
import {
	conversationOf,
	delegate,
	GATED_CHILDREN,
	piSubagentsSettings,
	SUBAGENT_TEST_TIMEOUT,
	subagentWorld,
} from "./subagents-support.ts";

afterEach(cleanupSandboxes);

const TINTINWEB = path.join(REPO_ROOT, "node_modules", "@tintinweb", "pi-subagents");
const STALE = /stale after session replacement|at .*session-gate\.js/;

describe("pi exits as it would without the gate", () => {
	it("a print run that ends at once, before the sandbox probe is in, exits 0 with an empty stderr", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, { conversations: [{ turns: [{ text: "hello" }] }] });

		// Three runs: the probe outlived the run in every one of them before the fix.
		for (let run = 0; run < 3; run++) {
			const result = await runPrint({ sandbox: sb, prompt: "hi", extensions: [EXTENSION_ENTRY] });
			expect(result.stderr).toBe("");
			expect(result.code).toBe(0);
			expect(result.stdout).toContain("hello");
		}
	});

	it(
		"after a pi-subagents in-process child ran, the root exits 0 without a trace",
		async () => {
			const world = await subagentWorld(piSubagentsSettings(GATED_CHILDREN));
			await writeScript(world.sb, {
				conversations: [
					{ match: "CHILD-TASK", turns: [{ text: "nothing to do" }] },
					conversationOf(undefined, [delegate("delegate", "CHILD-TASK delete victim.txt")]),
				],
			});
			const run = await runPrint({
				sandbox: world.sb,
				extensions: [EXTENSION_ENTRY],
				prompt: "delegate the clean-up",
				args: ["--permission-mode", "trusted"],
				mode: "json",
				timeoutMs: 120_000,
			});
			expect(run.toolResults.map((r) => r.toolName)).toEqual(["subagent"]);
			expect(run.stderr).not.toMatch(STALE);
			expect(run.code).toBe(0);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"after a @tintinweb/pi-subagents in-process child ran, the root exits 0 without a trace",
		async () => {
			const world = await subagentWorld({
				packages: [TINTINWEB, REPO_ROOT],
				extensions: [FAUX_MODEL_EXTENSION],
			});
			await writeScript(world.sb, {
				conversations: [
					{ match: "CHILD-TASK", turns: [{ text: "nothing to do" }] },
					conversationOf(undefined, [
						{
							tool: "Agent",
							input: {
								subagent_type: "general-purpose",
								description: "clean up",
								prompt: "CHILD-TASK delete victim.txt",
							},
						},
					]),
				],
			});
			const run = await runPrint({
				sandbox: world.sb,
				prompt: "delegate the clean-up",
				args: ["--permission-mode", "trusted"],
				mode: "json",
				timeoutMs: 120_000,
			});
			expect(run.toolResults.map((r) => r.toolName)).toEqual(["Agent"]);
			expect(run.stderr).not.toMatch(STALE);
			expect(run.code).toBe(0);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
