import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scripted } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { killAllRpc, startRpc } from "../harness/rpc-session.ts";
import { cleanupSandboxes, gateSandbox } from "./gate-support.ts";

const SUBAGENT_EXAMPLE = path.join(
	REPO_ROOT,
	"node_modules/@earendil-works/pi-coding-agent/examples/extensions/subagent/index.ts",
);

afterEach(async () => {
	await killAllRpc();
	await cleanupSandboxes();
});

describe("hub smoke", () => {
	it("forwards a child's ask to the root dialog", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await sb.writeSettings({ extensions: [FAUX_MODEL_EXTENSION, EXTENSION_ENTRY] });
		await sb.writeAgentFile(
			"agents/worker.md",
			"---\nname: worker\ndescription: test worker\nmodel: faux/faux-1\n---\nYou work.\n",
		);
		await writeScript(sb, {
			conversations: [
				{
					match: "CHILD-TASK",
					turns: [{ calls: [{ tool: "bash", input: { command: "rm -f victim.txt" } }] }, { echo: true }],
				},
				{
					turns: [
						{
							calls: [{ tool: "subagent", input: { agent: "worker", task: "CHILD-TASK remove the victim" } }],
						},
						{ echo: true },
					],
				},
			],
		});
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [SUBAGENT_EXAMPLE],
			dialog: scripted([{ select: "Allow once" }, { select: "Deny" }]),
			timeoutMs: 30_000,
		});
		const run = await rpc.prompt("delegate");
		console.log(
			JSON.stringify(
				run.dialogs.map((d) => d.request),
				null,
				1,
			),
		);
		console.log(run.finalText);
		console.log(rpc.stderr.slice(-2000));
		expect(existsSync(path.join(sb.workDir, "victim.txt"))).toBe(true);
	});
});
