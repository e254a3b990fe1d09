import { realpathSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanAgentDirectory } from "../../src/launchers/agent-definition.ts";
import { childGateVerdict } from "../../src/launchers/child-gate.ts";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { identifyLauncher, readDelegationCall } from "../../src/launchers/known-launcher.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import {
	cleanupWorlds,
	launcherWorld,
	PI_SUBAGENTS,
	PI_SUBAGENTS_ROOT,
	PROCESS_SUBAGENT,
	TINTINWEB,
} from "./launcher-world.ts";

afterEach(cleanupWorlds);

/** No agent files anywhere: an agent dir that does not exist. */
const NO_AGENT_FILES = { agentDir: path.join(REPO_ROOT, "no-such-agent-dir"), files: nodeFileView };

describe("recognising a launcher and what one call of it starts", () => {
	it("`subagent` from inside the pi-subagents package is pi-subagents; any other `subagent` starts pi processes", () => {
		expect(
			identifyLauncher(
				{ name: "subagent", sourcePath: path.join(PI_SUBAGENTS_ROOT, "src", "extension", "fanout-child.ts") },
				nodeFileView,
			),
		).toMatchObject({ kind: "pi-subagents", packageRoot: realpathSync(PI_SUBAGENTS_ROOT) });
		const example = path.join(
			REPO_ROOT,
			"node_modules/@earendil-works/pi-coding-agent/examples/extensions/subagent/index.ts",
		);
		expect(identifyLauncher({ name: "subagent", sourcePath: example }, nodeFileView)).toEqual({
			kind: "process-subagent",
			packageRoot: null,
			source: example,
		});
		expect(identifyLauncher({ name: "subagent", sourcePath: null }, nodeFileView)?.kind).toBe(
			"process-subagent",
		);
		expect(identifyLauncher({ name: "bash", sourcePath: null }, nodeFileView)).toBeNull();
	});

	it("pi-subagents: the agent, the cwd, foreground only with async:false, management actions start nothing", () => {
		const cwd = "/repo";
		expect(
			readDelegationCall(PI_SUBAGENTS, { agent: "delegate", task: "x", async: false }, cwd, NO_AGENT_FILES),
		).toEqual({
			launches: true,
			foreground: true,
			agents: ["delegate"],
			cwds: ["/repo"],
			withoutExtensions: false,
			tasks: [{ agent: "delegate", task: "x" }],
			tintinwebRuns: [],
		});
		const background = readDelegationCall(
			PI_SUBAGENTS,
			{ agent: "delegate", task: "x", cwd: "sub" },
			cwd,
			NO_AGENT_FILES,
		);
		expect(background).toMatchObject({ foreground: false, cwds: ["/repo/sub"] });
		expect(readDelegationCall(PI_SUBAGENTS, { action: "list" }, cwd, NO_AGENT_FILES).launches).toBe(false);
		expect(
			readDelegationCall(PI_SUBAGENTS, { action: "resume", id: "r1" }, cwd, NO_AGENT_FILES).launches,
		).toBe(true);
		expect(
			readDelegationCall(PI_SUBAGENTS, { workflowScript: "runs.run(…)" }, cwd, NO_AGENT_FILES).agents,
		).toBeNull();
	});

	it("`Agent` from @tintinweb/pi-subagents is that launcher; an `Agent` tool of any other source is an unknown one, whose children count as ungated", () => {
		const source = path.join(TINTINWEB.packageRoot ?? "", "src", "index.ts");
		expect(identifyLauncher({ name: "Agent", sourcePath: source }, nodeFileView)).toEqual({
			kind: "tintinweb-pi-subagents",
			packageRoot: realpathSync(TINTINWEB.packageRoot ?? ""),
			source,
		});
		const world = launcherWorld();
		// The gate is installed where @tintinweb's children would find it: no help for a launcher nobody knows.
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const other = path.join(PI_SUBAGENTS_ROOT, "src", "extension", "index.ts");
		const fork = world.write("fork/index.ts", "export default function fork(): void {}\n");
		world.writeJson("fork/package.json", { name: "pi-agents-fork", pi: { extensions: ["./index.ts"] } });
		for (const sourcePath of [other, fork, "<inline:agents>", null]) {
			const launcher = identifyLauncher({ name: "Agent", sourcePath }, nodeFileView);
			expect(launcher, String(sourcePath)).toEqual({
				kind: "unknown-agent",
				packageRoot: null,
				source: sourcePath,
			});
			if (launcher === null) continue;
			const verdict = childGateVerdict(
				world.query(launcher, readDelegationCall(launcher, {}, world.work, NO_AGENT_FILES)),
			);
			expect(verdict).toMatchObject({ gated: false, fix: { automatic: null } });
			if (!verdict.gated) expect(verdict.why).toContain("cannot be told");
		}
		expect(childGateVerdict(world.query(TINTINWEB)).gated).toBe(true);
		expect(identifyLauncher({ name: "Task", sourcePath: fork }, nodeFileView)).toBeNull();
	});

	it("@tintinweb/pi-subagents: the agent type, the session's cwd, foreground unless in the background, isolated", () => {
		expect(
			readDelegationCall(
				TINTINWEB,
				{ subagent_type: "Explore", prompt: "x", cwd: "/x" },
				"/repo",
				NO_AGENT_FILES,
			),
		).toEqual({
			launches: true,
			foreground: true,
			agents: ["Explore"],
			cwds: ["/repo"],
			withoutExtensions: false,
			tasks: [{ agent: "Explore", task: "x" }],
			tintinwebRuns: [null],
		});
		const call = readDelegationCall(
			TINTINWEB,
			{ prompt: "x", run_in_background: true, isolated: true },
			"/r",
			NO_AGENT_FILES,
		);
		expect(call).toMatchObject({ foreground: false, agents: null, withoutExtensions: true });
		expect(
			readDelegationCall(TINTINWEB, { subagent_type: "a", schedule: "in 5m" }, "/r", NO_AGENT_FILES)
				.foreground,
		).toBe(false);
	});

	it("@tintinweb/pi-subagents: an agent file's `run_in_background` wins over the call's, which decides when the file does not say", () => {
		const world = launcherWorld();
		const at = { agentDir: world.agentDir, files: nodeFileView };
		const file = world.write(
			"work/.pi/agents/digger.md",
			"---\ndescription: d\nrun_in_background: true\n---\n",
		);
		const foreground = (input: Record<string, unknown>): boolean =>
			readDelegationCall(TINTINWEB, { subagent_type: "digger", prompt: "x", ...input }, world.work, at)
				.foreground;
		expect(foreground({})).toBe(false);
		expect(foreground({ run_in_background: false })).toBe(false);
		// The file read for it is the one the call carries on (to child-gate.ts), not read again there.
		expect(readDelegationCall(TINTINWEB, { subagent_type: "digger" }, world.work, at).tintinwebRuns).toEqual([
			{
				file,
				isolated: undefined,
				runInBackground: true,
				extensions: true,
				excluded: [],
				enabled: true,
			},
		]);
		world.write("work/.pi/agents/digger.md", "---\ndescription: d\nrun_in_background: false\n---\n");
		expect(foreground({ run_in_background: true })).toBe(true);
		world.write("work/.pi/agents/digger.md", "---\ndescription: d\n---\n");
		expect(foreground({})).toBe(true);
		expect(foreground({ run_in_background: true })).toBe(false);
		expect(foreground({ schedule: "in 5m" })).toBe(false);
	});

	it("@tintinweb/pi-subagents: a type nobody defines runs as `general-purpose`, with that agent's file when a project redefines it", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const file = world.write(
			"work/.pi/agents/general-purpose.md",
			"---\ndescription: d\nisolated: true\n---\n",
		);
		const at = { agentDir: world.agentDir, files: nodeFileView };
		const call = readDelegationCall(
			TINTINWEB,
			{ subagent_type: "no-such-type", prompt: "x" },
			world.work,
			at,
		);
		expect(call.tintinwebRuns).toMatchObject([{ file, isolated: true }]);
		expect(childGateVerdict(world.query(TINTINWEB, call))).toMatchObject({ gated: false, fix: { file } });
		// A type the launcher defines itself keeps its own configuration: everything settings load.
		const explore = readDelegationCall(TINTINWEB, { subagent_type: "explore", prompt: "x" }, world.work, at);
		expect(explore.tintinwebRuns).toEqual([null]);
		expect(childGateVerdict(world.query(TINTINWEB, explore)).gated).toBe(true);
	});

	it("@tintinweb/pi-subagents: a disabled agent keeps its own `isolated` and `run_in_background` but loads what `general-purpose` loads", () => {
		const world = launcherWorld();
		const at = { agentDir: world.agentDir, files: nodeFileView };
		// Its own list names this very copy of the gate, which the launcher ignores for a disabled agent.
		world.write(
			"work/.pi/agents/digger.md",
			`---\ndescription: d\nenabled: false\nrun_in_background: true\nextensions: ${world.gateDir}\n---\n`,
		);
		const call = readDelegationCall(TINTINWEB, { subagent_type: "digger", prompt: "x" }, world.work, at);
		expect(call).toMatchObject({ foreground: false, tintinwebRuns: [{ extensions: true, enabled: false }] });
		expect(childGateVerdict(world.query(TINTINWEB, call)).gated).toBe(false);
		const general = world.write(
			"work/.pi/agents/general-purpose.md",
			"---\ndescription: d\nextensions: false\n---\n",
		);
		const narrowed = readDelegationCall(TINTINWEB, { subagent_type: "digger", prompt: "x" }, world.work, at);
		expect(narrowed.tintinwebRuns).toMatchObject([
			{
				file: general,
				extensions: false,
				runInBackground: true,
			},
		]);
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
			NO_AGENT_FILES,
		);
		expect(call).toEqual({
			launches: true,
			foreground: true,
			agents: ["scout", "worker"],
			cwds: ["/repo", "/elsewhere"],
			withoutExtensions: false,
			tasks: [
				{ agent: "scout", task: "a" },
				{ agent: "worker", task: "b" },
			],
			tintinwebRuns: [],
		});
		expect(
			readDelegationCall(PROCESS_SUBAGENT, { chain: [{ agent: "a" }] }, "/r", NO_AGENT_FILES).agents,
		).toEqual(["a"]);
	});

	it("agent files: names, aliases, package prefix, lists, and files that are not agents", () => {
		const world = launcherWorld();
		const file = world.write(
			"agents/x.md",
			"---\nname: planner\ndescription: plans\npackage: acme\nalias: pl\nextensions:\n  - ./local-ext\n  - /abs/ext, npm:thing\ntools: read, bash\n---\nbody\n",
		);
		world.write("agents/readme.md", "# notes\n");
		world.write("agents/y.md", "---\nname: y\n---\n");
		// The scan pi-subagents' discovery is read with: the two files that are not agents give nothing.
		expect(scanAgentDirectory(path.join(world.root, "agents"), nodeFileView)).toEqual({
			definitions: [
				{
					file,
					names: ["planner", "acme.planner", "pl"],
					extensions: [path.join(world.root, "agents", "local-ext"), "/abs/ext", "npm:thing"],
					subagentOnlyExtensions: undefined,
					tools: ["read", "bash"],
				},
			],
			complete: true,
		});
	});
});
