/**
 * Which agent a @tintinweb/pi-subagents `Agent` call runs, as the guard reads it, against the package itself: its
 * own registry functions (0.14.1, installed) load the same real agent files, and the guard must name the same
 * agent and the same configuration for every spelling of every name.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { extensionCanonicalNames } from "@tintinweb/pi-subagents/dist/agent-runner.js";
import {
	getAgentConfig,
	getConfig,
	registerAgents,
	resolveType,
	setDefaultsDisabled,
} from "@tintinweb/pi-subagents/dist/agent-types.js";
import { loadCustomAgents } from "@tintinweb/pi-subagents/dist/custom-agents.js";
import { afterEach, describe, expect, it } from "vitest";
import { type ChildGateVerdict, childGateVerdict } from "../../src/launchers/child-gate.ts";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { readDelegationCall } from "../../src/launchers/known-launcher.ts";
import { gatePackageAt } from "../../src/launchers/package-manifest.ts";
import { isUnknownRun, type TintinwebRun, tintinwebAgentFor } from "../../src/launchers/tintinweb-agent.ts";
import { tintinwebExtensionNames } from "../../src/launchers/tintinweb-extension-names.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import { cleanupWorlds, type LauncherWorld, launcherWorld, TINTINWEB } from "./launcher-world.ts";

const savedAgentDir = process.env.PI_CODING_AGENT_DIR;
afterEach(() => {
	cleanupWorlds();
	setDefaultsDisabled(false);
	if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
	else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
});

function verdict(world: LauncherWorld, type: string): ChildGateVerdict {
	const at = { agentDir: world.agentDir, files: nodeFileView };
	const call = readDelegationCall(TINTINWEB, { subagent_type: type, prompt: "t" }, world.work, at);
	return childGateVerdict(world.query(TINTINWEB, call));
}

/** An agent file that loads this copy of the gate by path, whatever settings load. */
function gatedAgent(world: LauncherWorld): string {
	return `---\ndescription: d\nextensions: ${path.join(world.gateDir, "dist", "index.js")}\n---\n`;
}

const ISOLATED = "---\ndescription: d\nisolated: true\n---\n";

/**
 * What the package runs for `type`, by its own functions: its `Agent` tool resolves the name (else
 * `general-purpose`), takes `isolated`/`run_in_background` from `getAgentConfig` and what loads from `getConfig`.
 * In the guard's terms: null when nothing comes from a file.
 */
function packageRun(world: LauncherWorld, type: string, defaultsDisabled: boolean): unknown {
	process.env.PI_CODING_AGENT_DIR = world.agentDir;
	setDefaultsDisabled(defaultsDisabled);
	try {
		registerAgents(loadCustomAgents(world.work));
	} catch {
		return "the call fails";
	}
	const subagentType = resolveType(type) ?? "general-purpose";
	const invoked = getAgentConfig(subagentType);
	const loads = getConfig(subagentType);
	// Its defaults (and, with none registered, its last resort) load everything settings load.
	if (invoked === undefined || invoked.isDefault === true) return null;
	return {
		isolated: invoked?.isolated,
		runInBackground: invoked?.runInBackground,
		extensions: loads.extensions,
		excluded: loads.excludeExtensions ?? [],
	};
}

function guardRun(run: TintinwebRun): unknown {
	if (run === null) return null;
	if (isUnknownRun(run)) return "the call fails";
	return {
		isolated: run.isolated,
		runInBackground: run.runInBackground,
		extensions: run.extensions,
		excluded: run.excluded,
	};
}

describe("@tintinweb/pi-subagents: the agent a call runs", () => {
	it("with its default agents disabled, a default's name runs the `general-purpose` a file defines, or the last-resort configuration", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		world.write("work/.pi/agents/general-purpose.md", ISOLATED);
		// Defaults on: Explore is the launcher's own, which loads what settings load.
		expect(verdict(world, "Explore").gated).toBe(true);
		world.writeJson("agent/subagents.json", { disableDefaultAgents: true });
		const result = verdict(world, "Explore");
		expect(result.gated).toBe(false);
		if (!result.gated) expect(result.fix.file).toBe(path.join(world.work, ".pi/agents/general-purpose.md"));
		// The project's file overrides the agent dir's; a malformed one, or a value of another type, is ignored.
		world.writeJson("work/.pi/subagents.json", { disableDefaultAgents: false });
		expect(verdict(world, "Explore").gated).toBe(true);
		for (const text of ["{ not json", JSON.stringify({ disableDefaultAgents: "no" })]) {
			world.write("work/.pi/subagents.json", text);
			expect(verdict(world, "Explore").gated, text).toBe(false);
		}
		// No `general-purpose` file: its last resort loads everything settings load.
		rmSync(path.join(world.work, ".pi/agents/general-purpose.md"));
		world.write("work/.pi/agents/other.md", ISOLATED);
		world.writeJson("work/.pi/subagents.json", { disableDefaultAgents: true });
		expect(tintinwebAgentFor("Plan", world.agentDir, world.work, nodeFileView)).toEqual([null]);
		expect(verdict(world, "Plan").gated).toBe(true);
	});

	it("when its `subagents.json` cannot be read here, every configuration either setting gives must load the gate", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		world.write("work/.pi/agents/general-purpose.md", ISOLATED);
		// Larger than the guard reads: the package would read it, so either setting may hold.
		world.write(
			"work/.pi/subagents.json",
			JSON.stringify({ disableDefaultAgents: false, pad: "x".repeat(5 * 1024 * 1024) }),
		);
		expect(tintinwebAgentFor("Explore", world.agentDir, world.work, nodeFileView)).toHaveLength(2);
		expect(verdict(world, "Explore").gated).toBe(false);
		// A name no setting changes keeps its one configuration.
		world.write("work/.pi/agents/worker.md", "---\ndescription: w\n---\n");
		expect(tintinwebAgentFor("worker", world.agentDir, world.work, nodeFileView)).toHaveLength(1);
		expect(verdict(world, "worker").gated).toBe(true);
	});

	it("a name matching a default in another case runs the default, not a file of that spelling", () => {
		const world = launcherWorld();
		// Settings do not load the gate; the project's `explore.md` does, by path.
		world.write("work/.pi/agents/explore.md", gatedAgent(world));
		expect(verdict(world, "explore").gated).toBe(true);
		// `EXPLORE` is `Explore` (registered first), which loads only what settings load.
		expect(verdict(world, "EXPLORE").gated).toBe(false);
		expect(verdict(world, "Explore").gated).toBe(false);
	});

	it("an exact name wins over a higher-priority file in another case; else the first registered (agent dir first)", () => {
		const world = launcherWorld();
		world.write("agent/agents/worker.md", ISOLATED);
		world.write("work/.pi/agents/Worker.md", gatedAgent(world));
		expect(verdict(world, "worker").gated).toBe(false);
		expect(verdict(world, "Worker").gated).toBe(true);
		// `WORKER` matches both: the agent dir's was registered first.
		expect(verdict(world, "WORKER").gated).toBe(false);
	});

	it("a disabled agent loads what the `general-purpose` of that exact name loads", () => {
		const world = launcherWorld();
		world.write("work/.pi/agents/digger.md", "---\ndescription: d\nenabled: false\n---\n");
		// Not `general-purpose`: the default of that name is what a disabled agent falls back to.
		world.write("work/.pi/agents/General-Purpose.md", gatedAgent(world));
		expect(verdict(world, "digger").gated).toBe(false);
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		world.write("work/.pi/agents/General-Purpose.md", "---\ndescription: d\nextensions: false\n---\n");
		expect(verdict(world, "digger").gated).toBe(true);
	});

	it('reads the frontmatter as YAML, as pi does for it: a comment, `True`, a quoted "true", a byte order mark', () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const ungatedBy = [
			"isolated: true # no extensions",
			"isolated: True",
			'extensions: "true"',
			"extensions: False",
			"inherit_extensions: none",
			"extensions: ~\ninherit_extensions: false",
		];
		for (const field of ungatedBy) {
			world.write("work/.pi/agents/worker.md", `---\ndescription: w\n${field}\n---\n`);
			expect(verdict(world, "worker").gated, field).toBe(false);
		}
		world.write("work/.pi/agents/worker.md", "\uFEFF---\r\ndescription: w\r\nisolated: true\r\n---\r\n");
		expect(verdict(world, "worker").gated).toBe(false);
		for (const field of [
			"extensions: [other, pi-permission-hub]",
			"extensions:\n  - pi-permission-hub",
			"isolated: 'true'",
		]) {
			world.write("work/.pi/agents/worker.md", `---\ndescription: w\n${field}\n---\n`);
			expect(verdict(world, "worker").gated, field).toBe(true);
		}
	});

	it("an agent file that is not YAML fails every call; the guard asks, naming the file", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const broken = world.write("agent/agents/broken.md", "---\ndescription: [unclosed\n---\n");
		const result = verdict(world, "Explore");
		expect(result.gated).toBe(false);
		if (!result.gated) expect(result.fix).toMatchObject({ file: broken, automatic: null });
		expect(packageRun(world, "Explore", false)).toBe("the call fails");
		// One too large for the check to read may be an agent that runs: the check asks too.
		rmSync(broken);
		world.write(
			"work/.pi/agents/explore.md",
			`---\ndescription: e\nisolated: true\n---\n${"x".repeat(5 * 1024 * 1024)}\n`,
		);
		expect(verdict(world, "explore").gated).toBe(false);
		expect(packageRun(world, "explore", false)).toMatchObject({ isolated: true });
	});

	it("a call with `resume` continues an earlier child, whatever type it names: what that child loads cannot be told, so it asks", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const at = { agentDir: world.agentDir, files: nodeFileView };
		const input = {
			subagent_type: "general-purpose",
			prompt: "t",
			resume: "agent-1",
			run_in_background: true,
		};
		const call = readDelegationCall(TINTINWEB, input, world.work, at);
		// It waits for the resumed child (its resume runs before any background start).
		expect(call.foreground).toBe(true);
		const result = childGateVerdict(world.query(TINTINWEB, call));
		expect(result.gated).toBe(false);
		if (!result.gated) {
			expect(result.fix).toEqual({
				file: null,
				field: "resume",
				text: "start a new subagent instead of resuming one",
				automatic: null,
			});
		}
		expect(verdict(world, "general-purpose").gated).toBe(true);
	});

	it("agrees with the package's own registry for every spelling, with defaults on and off", () => {
		const world = launcherWorld();
		world.write("agent/agents/worker.md", ISOLATED);
		world.write("agent/agents/Explore.md", "---\ndescription: e\nrun_in_background: true\n---\n");
		world.write("work/.agents/agents/WORKER.md", "---\ndescription: w\nextensions: a, b\n---\n");
		world.write("work/.pi/agents/Worker.md", gatedAgent(world));
		world.write("work/.pi/agents/plan.md", "---\ndescription: p\nexclude_extensions: x\n---\n");
		world.write("work/.pi/agents/off.md", "---\ndescription: o\nenabled: false\nisolated: false\n---\n");
		world.write("work/.pi/agents/General-purpose.md", "---\ndescription: g\nextensions: false\n---\n");
		world.write(
			"work/.pi/agents/yaml.md",
			"\uFEFF---\ndescription: y\nisolated: True # c\nextensions: [a, b]\nexclude_extensions:\n  - c\n  - d\nrun_in_background: 'true'\n---\n",
		);
		world.write(
			"work/.pi/agents/nulls.md",
			"---\ndescription: n\nisolated: ~\nenabled: False\nextensions: null\ninherit_extensions: x, y\n---\n",
		);
		const names = ["worker", "Worker", "WORKER", "wOrKeR", "explore", "Explore", "EXPLORE", "plan", "Plan"];
		const more = [
			"PLAN",
			"off",
			"OFF",
			"general-purpose",
			"General-Purpose",
			"GENERAL-PURPOSE",
			"nobody",
			"yaml",
			"nulls",
		];
		for (const disabled of [false, true]) {
			world.writeJson("work/.pi/subagents.json", { disableDefaultAgents: disabled });
			for (const name of [...names, ...more]) {
				const ours = tintinwebAgentFor(name, world.agentDir, world.work, nodeFileView).map(guardRun);
				expect(ours, `${name}, defaults disabled: ${disabled}`).toEqual([packageRun(world, name, disabled)]);
			}
		}
	});
});

describe("@tintinweb/pi-subagents: the names an agent file's extension lists match", () => {
	it("are the package's own names for each entry: the built gate answers to `extension` and to its package name", () => {
		const world = launcherWorld();
		const scoped = world.writeJson("scoped/package.json", {
			name: "@someone/Tool",
			pi: { extensions: ["./src/main.ts"] },
		});
		world.write("scoped/src/main.ts", "export default function tool(): void {}\n");
		world.write("broken/package.json", "{ not json");
		world.write("broken/lib/index.js", "export default function lib() {}\n");
		const entries = [
			path.join(REPO_ROOT, "dist", "extension", "index.js"),
			path.join(world.gateDir, "dist", "index.js"),
			path.join(path.dirname(scoped), "src", "main.ts"),
			path.join(world.root, "broken", "lib", "index.js"),
			path.join(REPO_ROOT, "node_modules", "@tintinweb", "pi-subagents", "dist", "index.js"),
		];
		for (const entry of entries) {
			expect(tintinwebExtensionNames(entry, nodeFileView), entry).toEqual(extensionCanonicalNames(entry));
		}
		expect(tintinwebExtensionNames(entries[0] ?? "", nodeFileView)).toEqual([
			"extension",
			"pi-permission-hub",
		]);
	});

	it("so, for the built gate, `extensions: pi-permission-hub` or `extension` keeps it, a path to its package directory drops it, and excluding either name drops it", () => {
		const world = launcherWorld();
		const gate = gatePackageAt(REPO_ROOT, nodeFileView);
		world.writeJson("agent/settings.json", { packages: [REPO_ROOT] });
		const file = world.write("work/.pi/agents/worker.md", "---\ndescription: w\n---\n");
		const check = (frontmatter: string): ChildGateVerdict => {
			world.write("work/.pi/agents/worker.md", `---\ndescription: w\n${frontmatter}\n---\n`);
			const at = { agentDir: world.agentDir, files: nodeFileView };
			const call = readDelegationCall(TINTINWEB, { subagent_type: "worker", prompt: "t" }, world.work, at);
			return childGateVerdict(world.query(TINTINWEB, call, { gate }));
		};
		expect(check("extensions: pi-permission-hub, other").gated).toBe(true);
		expect(check("extensions: Pi-Permission-Hub").gated).toBe(true);
		expect(check("extensions: extension, other").gated).toBe(true);
		expect(check(`extensions: ${path.join(REPO_ROOT, "dist", "extension", "index.js")}`).gated).toBe(true);
		expect(check(`extensions: ${path.join(REPO_ROOT, "dist", "extension")}`).gated).toBe(true);
		// A path adds only its own name: the package directory's is not one the entry answers to.
		for (const dropped of ["extensions: other", `extensions: ${REPO_ROOT}`]) {
			const result = check(dropped);
			expect(result.gated, dropped).toBe(false);
			if (!result.gated) {
				expect(result.fix.text).toBe(`add "pi-permission-hub" to \`extensions:\` in ${file}`);
			}
		}
		for (const name of ["Extension", "pi-permission-hub"]) {
			const excluded = check(`exclude_extensions: ${name}`);
			expect(excluded.gated, name).toBe(false);
			if (!excluded.gated)
				expect(excluded.fix.text).toBe(`remove "${name}" from \`exclude_extensions:\` in ${file}`);
		}
		// Through a link the entry answers to the link's name, which its exclusion drops (exclude wins).
		world.link(path.join(REPO_ROOT, "dist", "extension", "index.js"), "work/hub.js");
		expect(check("extensions: ./hub.js").gated).toBe(true);
		expect(check("extensions: ./hub.js\nexclude_extensions: hub").gated).toBe(false);
		// Settings that load it through a link: their path's name is the one its `extensions:` and exclusions see.
		world.writeJson("agent/settings.json", { extensions: [path.join(world.work, "hub.js")] });
		expect(check("extensions: hub").gated).toBe(true);
		expect(check("extensions: extension").gated).toBe(false);
		expect(check("exclude_extensions: hub").gated).toBe(false);
		expect(check("exclude_extensions: extension").gated).toBe(false);
	});
});
