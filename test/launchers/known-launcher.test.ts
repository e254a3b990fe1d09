import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readAgentDefinition } from "../../src/launchers/agent-definition.ts";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { identifyLauncher, readDelegationCall } from "../../src/launchers/known-launcher.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import {
	cleanupWorlds,
	launcherWorld,
	PI_SUBAGENTS,
	PI_SUBAGENTS_ROOT,
	PROCESS_SUBAGENT,
} from "./launcher-world.ts";

afterEach(cleanupWorlds);

describe("recognising a launcher and what one call of it starts", () => {
	it("`subagent` from inside the pi-subagents package is pi-subagents; any other `subagent` starts pi processes", () => {
		expect(
			identifyLauncher(
				{ name: "subagent", sourcePath: path.join(PI_SUBAGENTS_ROOT, "src", "extension", "fanout-child.ts") },
				nodeFileView,
			),
		).toEqual({ kind: "pi-subagents", packageRoot: PI_SUBAGENTS_ROOT });
		const example = path.join(
			REPO_ROOT,
			"node_modules/@earendil-works/pi-coding-agent/examples/extensions/subagent/index.ts",
		);
		expect(identifyLauncher({ name: "subagent", sourcePath: example }, nodeFileView)).toEqual({
			kind: "process-subagent",
			source: example,
		});
		expect(identifyLauncher({ name: "subagent", sourcePath: null }, nodeFileView)?.kind).toBe(
			"process-subagent",
		);
		expect(identifyLauncher({ name: "bash", sourcePath: null }, nodeFileView)).toBeNull();
	});

	it("pi-subagents: the agent, the cwd, foreground only with async:false, management actions start nothing", () => {
		const cwd = "/repo";
		expect(readDelegationCall(PI_SUBAGENTS, { agent: "delegate", task: "x", async: false }, cwd)).toEqual({
			launches: true,
			foreground: true,
			agents: ["delegate"],
			cwds: ["/repo"],
			tasks: [{ agent: "delegate", task: "x" }],
		});
		const background = readDelegationCall(PI_SUBAGENTS, { agent: "delegate", task: "x", cwd: "sub" }, cwd);
		expect(background).toMatchObject({ foreground: false, cwds: ["/repo/sub"] });
		expect(readDelegationCall(PI_SUBAGENTS, { action: "list" }, cwd).launches).toBe(false);
		expect(readDelegationCall(PI_SUBAGENTS, { action: "resume", id: "r1" }, cwd).launches).toBe(true);
		expect(readDelegationCall(PI_SUBAGENTS, { workflowScript: "runs.run(…)" }, cwd).agents).toBeNull();
	});

	it("pi's example: single, parallel and chain forms, each with its own cwd", () => {
		const call = readDelegationCall(
			PROCESS_SUBAGENT,
			{
				tasks: [
					{ agent: "scout", task: "a", cwd: "/elsewhere" },
					{ agent: "worker", task: "b" },
				],
			},
			"/repo",
		);
		expect(call).toEqual({
			launches: true,
			foreground: true,
			agents: ["scout", "worker"],
			cwds: ["/repo", "/elsewhere"],
			tasks: [
				{ agent: "scout", task: "a" },
				{ agent: "worker", task: "b" },
			],
		});
		expect(readDelegationCall(PROCESS_SUBAGENT, { chain: [{ agent: "a" }] }, "/r").agents).toEqual(["a"]);
	});

	it("agent files: names, aliases, package prefix, lists, and files that are not agents", () => {
		const world = launcherWorld();
		const file = world.write(
			"agents/x.md",
			"---\nname: planner\ndescription: plans\npackage: acme\nalias: pl\nextensions:\n  - ./local-ext\n  - /abs/ext, npm:thing\ntools: read, bash\n---\nbody\n",
		);
		expect(readAgentDefinition(file, nodeFileView)).toEqual({
			file,
			names: ["planner", "acme.planner", "pl"],
			extensions: [path.join(world.root, "agents", "local-ext"), "/abs/ext", "npm:thing"],
			subagentOnlyExtensions: undefined,
			tools: ["read", "bash"],
		});
		const notAgent = world.write("agents/readme.md", "# notes\n");
		expect(readAgentDefinition(notAgent, nodeFileView)).toBeNull();
		expect(readAgentDefinition(world.write("agents/y.md", "---\nname: y\n---\n"), nodeFileView)).toBeNull();
	});
});
