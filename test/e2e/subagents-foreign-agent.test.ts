/**
 * An `Agent` tool that is not @tintinweb/pi-subagents' is an unknown launcher (adr/0026): what its children load
 * cannot be told, so the delegation asks a human whatever the tool declares about itself, even with the gate
 * installed in the agent dir (where @tintinweb's children would find it).
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";

import { stopRpcAndCleanUp } from "./gate-support.ts";
import {
	answer,
	auditWhen,
	conversationOf,
	GUARD_STEP,
	isGuardAsk,
	SUBAGENT_TEST_TIMEOUT,
	startRoot,
	subagentWorld,
	victimExists,
} from "./subagents-support.ts";

const FOREIGN_AGENT = path.join(REPO_ROOT, "test", "fixtures", "foreign-agent-extension.ts");

afterEach(stopRpcAndCleanUp);

describe("an Agent tool from another package", () => {
	it(
		"asks a human before it runs, though it declares itself read-only; Deny keeps the file",
		async () => {
			const made = await subagentWorld({
				packages: [REPO_ROOT],
				extensions: [FAUX_MODEL_EXTENSION, FOREIGN_AGENT],
			});
			const call = { tool: "Agent", input: { subagent_type: "general-purpose", prompt: "clean up" } };
			await writeScript(made.sb, { conversations: [conversationOf(undefined, [call])] });
			const { rpc } = await startRoot(
				made,
				answer(() => "Deny"),
				[],
			);

			const run = await rpc.prompt("delegate the clean-up");

			expect(run.dialogs.map((d) => isGuardAsk(d.request))).toEqual([true]);
			expect(run.dialogs[0]?.request.title).toContain("not from a launcher the gate knows");
			expect(victimExists(made)).toBe(true);
			const [line] = await auditWhen(made, (all) => all.some((e) => e.tool === "Agent"));
			expect(line).toMatchObject({ tool: "Agent", outcome: "deny", chain: [{ link: GUARD_STEP }] });
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
