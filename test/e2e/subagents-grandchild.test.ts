/**
 * A grandchild process started by an in-process child (pi-subagents' foreground subagent runs inside the root's
 * process): its ask travels through that child, and the root's dialog names the whole path.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, node22Binary, PI_CLI } from "../harness/paths.ts";

import { bash, stopRpcAndCleanUp } from "./gate-support.ts";
import { isForwarded } from "./hub-support.ts";
import {
	answer,
	conversationOf,
	delegate,
	GATED_CHILDREN,
	piSubagentsSettings,
	RM,
	SUBAGENT_TEST_TIMEOUT,
	startRoot,
	subagentWorld,
	victimExists,
} from "./subagents-support.ts";

afterEach(stopRpcAndCleanUp);

/** What the in-process child runs with its bash tool: a plain `pi -p` with the gate, on the grandchild's task. */
const GRANDCHILD = [
	node22Binary(),
	PI_CLI,
	"--mode json -p --no-session --model faux/faux-1",
	`-e ${FAUX_MODEL_EXTENSION} -e ${EXTENSION_ENTRY}`,
	"'[grandchild] delete the victim' > grandchild.jsonl 2> grandchild.stderr",
].join(" ");

describe("a process an in-process child starts with its bash tool", () => {
	it(
		"asks through that child: the root's dialog shows root ← delegate ← subagent",
		async () => {
			const world = await subagentWorld(piSubagentsSettings(GATED_CHILDREN));
			await writeScript(world.sb, {
				conversations: [
					conversationOf("[grandchild]", [bash(RM)]),
					conversationOf("[helper]", [bash(GRANDCHILD)]),
					conversationOf(undefined, [delegate("delegate", "[helper] start the helper")]),
				],
			});
			const { rpc } = await startRoot(
				world,
				answer(() => "Allow once"),
			);

			const run = await rpc.prompt("delegate the clean-up");

			const forwarded = run.dialogs.map((d) => d.request).filter(isForwarded);
			const grandchildAsk = forwarded.find((r) => r.title.includes(`bash: ${RM}`));
			expect(grandchildAsk?.title).toContain("Requested by: subagent root ← delegate ← subagent");
			expect(victimExists(world)).toBe(false);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
