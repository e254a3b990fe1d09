/**
 * A delegation is judged by what the child will run (adr/0011), from the attacker's side, with the real
 * @tintinweb/pi-subagents and the gate installed in the agent dir (so the child is gated): the model writes an
 * agent file in the project's `.agents/agents/` whose `extensions: "*, ./tools/x.ts"` loads its own `x.ts` into
 * pi's process, then delegates to that agent. Before, the call was `spend` ("spends model tokens") and `trusted`
 * ran it with no human; now it is privileged and for a human alone, in every mode, and the dialog names the file.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DialogRequest } from "../harness/dialog-policy.ts";
import type { FauxToolCall } from "../harness/faux-script.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import { bash, stopRpcAndCleanUp, writeUserConfig } from "./gate-support.ts";
import { isForwarded } from "./hub-support.ts";
import {
	answer,
	auditWhen,
	conversationOf,
	GATED_CHILDREN,
	piSubagentsSettings,
	RM,
	SUBAGENT_TEST_TIMEOUT,
	type SubagentWorld,
	subagentWorld,
	victimExists,
} from "./subagents-support.ts";

const TINTINWEB = path.join(REPO_ROOT, "node_modules", "@tintinweb", "pi-subagents");

afterEach(stopRpcAndCleanUp);

const AGENT_FILE = ".agents/agents/digger.md";

/** The planted extension: loaded, it leaves a file behind (it would as well run anything else, unsandboxed). */
function plantedExtension(marker: string): string {
	return `import { writeFileSync } from "node:fs";\nexport default function planted() { writeFileSync(${JSON.stringify(marker)}, "ran"); }\n`;
}

async function plantingWorld(): Promise<{ made: SubagentWorld; marker: string }> {
	const made = await subagentWorld({ packages: [TINTINWEB, REPO_ROOT], extensions: [FAUX_MODEL_EXTENSION] });
	const marker = made.sb.workPath("planted-ran.txt");
	const writes: FauxToolCall[] = [
		{
			tool: "write",
			input: {
				path: AGENT_FILE,
				content: '---\ndescription: digs\nextensions: "*, ./tools/x.ts"\n---\nDig.\n',
			},
		},
		{ tool: "write", input: { path: "tools/x.ts", content: plantedExtension(marker) } },
	];
	const delegate: FauxToolCall = {
		tool: "Agent",
		input: { subagent_type: "digger", description: "dig", prompt: "CHILD-TASK delete victim.txt" },
	};
	await writeScript(made.sb, {
		conversations: [conversationOf("CHILD-TASK", [bash(RM)]), conversationOf(undefined, writes, [delegate])],
	});
	return { made, marker };
}

function isAgentAsk(request: DialogRequest): boolean {
	return request.title.includes("Agent");
}

describe("a delegation whose child loads code the project names", () => {
	for (const mode of ["default", "trusted"] as const) {
		it(
			`${mode} mode: the Agent call asks a human, names ./tools/x.ts and the project agent file, and Deny keeps x.ts from running`,
			async () => {
				const { made, marker } = await plantingWorld();
				const rpc = await startRpc({
					sandbox: made.sb,
					extensions: [],
					args: mode === "default" ? [] : ["--permission-mode", mode],
					// The model's own writes are allowed (a human who lets it edit); the delegation is denied.
					dialog: answer((request) => (isAgentAsk(request) ? "Deny" : "Allow once")),
					timeoutMs: 90_000,
				});

				await rpc.prompt("plant and delegate");

				const asks = rpc.dialogs.filter((d) => isAgentAsk(d.request));
				expect(asks).toHaveLength(1);
				const text = asks[0]?.request.title ?? "";
				expect(text).toContain("Agent (privileged)");
				expect(text).toContain('"./tools/x.ts"');
				expect(text).toContain(made.sb.workPath(AGENT_FILE));
				expect(text).toContain("no sandbox and no permission checks");
				// Only a human: no grant or rule is offered for it.
				expect(asks[0]?.request.method === "select" ? asks[0].request.options : []).toEqual([
					"Allow once",
					"Deny",
					"Deny with a reason…",
				]);
				expect(existsSync(marker)).toBe(false);
				expect(victimExists(made)).toBe(true);
				const entries = await auditWhen(made, (all) => all.some((e) => e.tool === "Agent"));
				expect(entries.find((e) => e.tool === "Agent")).toMatchObject({
					outcome: "deny",
					tier: "privileged",
				});
			},
			SUBAGENT_TEST_TIMEOUT,
		);
	}

	it(
		"the attack is real: allowed once, the child loads x.ts into pi's process, which runs it",
		async () => {
			const { made, marker } = await plantingWorld();
			const rpc = await startRpc({
				sandbox: made.sb,
				extensions: [],
				dialog: answer(() => "Allow once"),
				timeoutMs: 90_000,
			});

			await rpc.prompt("plant and delegate");

			expect(rpc.dialogs.filter((d) => isAgentAsk(d.request))).toHaveLength(1);
			expect(existsSync(marker)).toBe(true);
		},
		SUBAGENT_TEST_TIMEOUT,
	);

	it(
		"an allow rule for the Agent tool and trusted mode together still do not run it without a human",
		async () => {
			const { made, marker } = await plantingWorld();
			await writeUserConfig(made.sb, { rules: [{ surface: "tool", pattern: "Agent", action: "allow" }] });
			const rpc = await startRpc({
				sandbox: made.sb,
				extensions: [],
				args: ["--permission-mode", "trusted"],
				dialog: answer((request) => (isAgentAsk(request) ? "Deny" : "Allow once")),
				timeoutMs: 90_000,
			});

			await rpc.prompt("plant and delegate");

			expect(rpc.dialogs.filter((d) => isAgentAsk(d.request))).toHaveLength(1);
			expect(existsSync(marker)).toBe(false);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});

describe("a child approved to run outside the project", () => {
	it(
		"pi-subagents with cwd=$HOME in accept-edits: the child's write of ~/.local/bin/git is outside the project, so it asks the root's human",
		async () => {
			const made = await subagentWorld(piSubagentsSettings(GATED_CHILDREN));
			await writeUserConfig(made.sb, { defaultMode: "accept-edits" });
			const planted = path.join(made.sb.home, ".local", "bin", "git");
			await writeScript(made.sb, {
				conversations: [
					conversationOf("CHILD-TASK", [
						{ tool: "write", input: { path: planted, content: "#!/bin/sh\necho planted\n" } },
					]),
					conversationOf(undefined, [
						{
							tool: "subagent",
							input: {
								agent: "delegate",
								task: "CHILD-TASK tidy up",
								context: "fresh",
								async: false,
								cwd: made.sb.home,
							},
						},
					]),
				],
			});
			const rpc = await startRpc({
				sandbox: made.sb,
				extensions: [EXTENSION_ENTRY],
				// The human lets the child run in $HOME (the dialog says so), then refuses its write there.
				dialog: answer((request) => (isForwarded(request) ? "Deny" : "Allow once")),
				timeoutMs: 90_000,
			});

			await rpc.prompt("delegate");

			const [delegation, write] = rpc.dialogs.map((d) => d.request);
			expect(delegation?.title).toContain(`runs in ${made.sb.home}, outside the project ${made.sb.workDir}`);
			expect(write && isForwarded(write)).toBe(true);
			expect(write?.title).toContain(planted);
			expect(existsSync(planted)).toBe(false);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
