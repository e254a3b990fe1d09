/**
 * What a delegation's child loads beyond the gate and the user's own configuration, and where it runs, from the
 * attacker's side: the model writes project files (an agent definition naming `./tools/x.ts`, a project
 * `.pi/settings.json`), or delegates into a directory outside the project. Real files, real checks.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { childGateVerdict } from "../../src/launchers/child-gate.ts";
import { childReach, describeReach, isContained } from "../../src/launchers/child-reach.ts";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { type KnownLauncher, readDelegationCall } from "../../src/launchers/known-launcher.ts";
import {
	cleanupWorlds,
	type LauncherWorld,
	launcherWorld,
	PI_SUBAGENTS,
	PROCESS_SUBAGENT,
	TINTINWEB,
} from "./launcher-world.ts";

afterEach(cleanupWorlds);

function reachOf(world: LauncherWorld, launcher: KnownLauncher, input: Record<string, unknown>) {
	const at = { agentDir: world.agentDir, files: nodeFileView };
	const call = readDelegationCall(launcher, input, world.work, at);
	const query = world.query(launcher, call);
	return { reach: childReach(query, world.work), verdict: childGateVerdict(query) };
}

const AGENT = (extensions: string): string =>
	`---\nname: digger\ndescription: digs\nextensions: ${extensions}\n---\nDig.\n`;

describe("@tintinweb/pi-subagents", () => {
	it("an agent file the model wrote in .agents/agents/ naming ./tools/x.ts: the child is gated, yet not contained", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const file = world.write("work/.agents/agents/digger.md", AGENT('"*, ./tools/x.ts"'));
		world.write("work/tools/x.ts", "export default function x() {}\n");

		const { reach, verdict } = reachOf(world, TINTINWEB, { subagent_type: "digger", prompt: "dig" });

		expect(verdict.gated).toBe(true);
		expect(isContained(reach)).toBe(false);
		expect(reach.loads).toEqual([
			{ kind: "agent definition", written: "digger", at: file, namedIn: file },
			{ kind: "extension", written: "./tools/x.ts", at: path.join(world.work, "tools/x.ts"), namedIn: file },
		]);
		expect(describeReach(reach, world.work)).toContain(
			`"./tools/x.ts" (${path.join(world.work, "tools/x.ts")})`,
		);
	});

	it("the same agent in the user's agent dir, keeping what settings load: contained", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir, world.otherExtension] });
		world.write("agent/agents/digger.md", AGENT('"*"'));

		const { reach, verdict } = reachOf(world, TINTINWEB, { subagent_type: "digger", prompt: "dig" });

		expect(verdict.gated).toBe(true);
		expect(reach).toEqual({ loads: [], outside: [] });
	});

	it("a project .pi/settings.json the model wrote: its extension is loaded by the child's fresh loader", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const settings = world.writeJson("work/.pi/settings.json", { extensions: ["./evil.ts"] });
		world.write("work/.pi/evil.ts", "export default function evil() {}\n");

		const { reach } = reachOf(world, TINTINWEB, { subagent_type: "general-purpose", prompt: "dig" });

		expect(reach.loads).toContainEqual(
			expect.objectContaining({ kind: "extension", written: "./evil.ts", namedIn: settings }),
		);
	});
});

describe("pi-subagents", () => {
	it("a project agent definition with subagentOnlyExtensions: ./x.ts: its file and its extension", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });
		const file = world.write(
			"work/.agents/digger.md",
			`---\nname: digger\ndescription: digs\nsubagentOnlyExtensions: ./x.ts\n---\nDig.\n`,
		);
		world.write("work/.agents/x.ts", "export default function x() {}\n");

		const { reach } = reachOf(world, PI_SUBAGENTS, { agent: "digger", task: "dig", async: false });

		expect(reach.loads).toContainEqual({
			kind: "agent definition",
			written: "digger",
			at: file,
			namedIn: file,
		});
		expect(reach.loads).toContainEqual(
			expect.objectContaining({
				kind: "extension",
				at: path.join(world.work, ".agents/x.ts"),
				namedIn: file,
			}),
		);
	});

	it("the user's defaults naming another extension outside the project: contained; a relative one lands in the project", () => {
		const world = launcherWorld();
		const settings = world.writeJson("agent/settings.json", {
			subagents: { defaultExtensions: [world.gateDir, world.otherExtension] },
		});
		expect(reachOf(world, PI_SUBAGENTS, { agent: "worker", task: "t", async: false }).reach).toEqual({
			loads: [],
			outside: [],
		});

		world.writeJson("agent/settings.json", {
			subagents: { defaultExtensions: [world.gateDir, "./tools/x.ts"] },
		});
		const { reach } = reachOf(world, PI_SUBAGENTS, { agent: "worker", task: "t", async: false });
		expect(reach.loads).toContainEqual({
			kind: "extension",
			written: "./tools/x.ts",
			at: path.join(world.work, "tools/x.ts"),
			namedIn: settings,
		});
	});

	it("a cwd outside the project: the child runs there, and the reach says so", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });

		const { reach, verdict } = reachOf(world, PI_SUBAGENTS, {
			agent: "worker",
			task: "t",
			async: false,
			cwd: world.home,
		});

		expect(verdict.gated).toBe(true);
		expect(reach.outside).toEqual([world.home]);
		expect(describeReach(reach, world.work)).toBe(`runs in ${world.home}, outside the project ${world.work}`);
		// A subdirectory of the project is inside it.
		const sub = reachOf(world, PI_SUBAGENTS, { agent: "worker", task: "t", async: false, cwd: "src" });
		expect(sub.reach.outside).toEqual([]);
	});
});

describe("a launcher that starts pi processes", () => {
	it("a project agent file of the named agent is a project agent definition", () => {
		const world = launcherWorld();
		const file = world.write("work/.pi/agents/worker.md", "---\nname: worker\ndescription: w\n---\nWork.\n");

		const { reach } = reachOf(world, PROCESS_SUBAGENT, { agent: "worker", task: "t" });

		expect(reach.loads).toEqual([{ kind: "agent definition", written: "worker", at: file, namedIn: file }]);
	});
});
