import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ChildGateVerdict, childGateVerdict } from "../../src/launchers/child-gate.ts";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { readDelegationCall } from "../../src/launchers/known-launcher.ts";
import {
	cleanupWorlds,
	type LauncherWorld,
	launcherWorld,
	plantImpostor,
	TINTINWEB,
} from "./launcher-world.ts";

afterEach(cleanupWorlds);

/** A call of agent `worker` as the gate reads it (the agent file included), checked. */
function verdict(world: LauncherWorld, input: Readonly<Record<string, unknown>> = {}): ChildGateVerdict {
	const at = { agentDir: world.agentDir, files: nodeFileView };
	const call = readDelegationCall(
		TINTINWEB,
		{ subagent_type: "worker", prompt: "t", ...input },
		world.work,
		at,
	);
	return childGateVerdict(world.query(TINTINWEB, call));
}

function ungated(result: ChildGateVerdict): Extract<ChildGateVerdict, { gated: false }> {
	if (result.gated) throw new Error(`expected ungated, got ${result.via}`);
	return result;
}

describe("@tintinweb/pi-subagents: in-process children load what the agent dir (and any project) loads", () => {
	it("nothing installed: ungated, and the fix is the `packages` change doctor --fix makes; installed: gated", () => {
		const world = launcherWorld();
		const settings = path.join(world.agentDir, "settings.json");
		world.writeJson("agent/settings.json", { packages: [world.otherExtension] });
		const result = ungated(verdict(world));
		expect(result.why).toContain("never this session's -e flags");
		expect(result.fix.automatic?.change).toEqual({
			file: settings,
			key: "packages",
			before: [world.otherExtension],
			after: [world.otherExtension, world.gateDir],
		});
		world.writeJson("agent/settings.json", { packages: [world.otherExtension, world.gateDir] });
		expect(verdict(world)).toEqual({ gated: true, via: `\`packages\` in ${settings}` });
	});

	it("a project's .pi/settings.json counts even when pi does not trust the project (its loader trusts every project)", () => {
		const world = launcherWorld();
		world.writeJson("work/.pi/settings.json", { packages: [world.gateDir] });
		expect(childGateVerdict(world.query(TINTINWEB, {}, { projectTrusted: false })).gated).toBe(true);
	});

	it("a package a project plants under the gate's name is not the gate: only this copy's real path counts", () => {
		const world = launcherWorld();
		const impostor = plantImpostor(world, "work/.pi/impostor");
		world.writeJson("work/.pi/settings.json", { packages: ["./impostor"] });
		const result = ungated(childGateVerdict(world.query(TINTINWEB, {}, { projectTrusted: false })));
		expect(result.why).toContain("none of them is pi-permission-hub");
		// Nor an agent file's path to it.
		world.writeJson("work/.pi/settings.json", {});
		world.writeJson("agent/settings.json", { packages: [world.otherExtension] });
		world.write("work/.pi/agents/worker.md", `---\ndescription: w\nextensions: ${impostor}\n---\n`);
		expect(verdict(world).gated).toBe(false);
		// The real copy, through a symlink in the project, still counts.
		world.link(world.gateDir, "work/.pi/linked-gate");
		world.writeJson("work/.pi/settings.json", { packages: ["./linked-gate"] });
		world.write("work/.pi/agents/worker.md", "---\ndescription: w\n---\n");
		expect(verdict(world).gated).toBe(true);
		// With no copy of its own located, the guard counts nothing as the gate.
		expect(childGateVerdict(world.query(TINTINWEB, { agents: ["worker"] }, { gate: null })).gated).toBe(
			false,
		);
	});

	it("`isolated: true` in the call loads nothing: ungated, and no settings change can fix it", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const result = ungated(verdict(world, { isolated: true }));
		expect(result.why).toContain("`isolated: true`");
		expect(result.fix).toMatchObject({ file: null, automatic: null });
	});

	it("the agent file narrows what loads: isolated, extensions: false, a list without the gate, an exclusion", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const file = world.write("work/.pi/agents/worker.md", "---\ndescription: w\nisolated: true\n---\nbody\n");
		const cases: [string, string][] = [
			["isolated: true", "remove `isolated: true`"],
			["extensions: false", 'list "pi-permission-hub" in `extensions:`'],
			["extensions: some-extension, other", 'add "pi-permission-hub" to `extensions:`'],
			["exclude_extensions: pi-permission-hub", 'remove "pi-permission-hub" from `exclude_extensions:`'],
		];
		for (const [field, fix] of cases) {
			world.write("work/.pi/agents/worker.md", `---\ndescription: w\n${field}\n---\nbody\n`);
			const result = ungated(verdict(world));
			expect(result.fix, field).toEqual({
				file,
				field: expect.any(String),
				text: `${fix} in ${file}`,
				automatic: null,
			});
		}
		// The call's own `isolated: false` does not undo the file's (the file wins).
		world.write("work/.pi/agents/worker.md", "---\ndescription: w\nisolated: true\n---\n");
		expect(verdict(world, { isolated: false }).gated).toBe(false);
	});

	it("a list that names the gate, `*`, or a path to its entry keeps it; a path loads it even when settings do not", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		for (const list of ["pi-permission-hub, other", '"*"']) {
			world.write("agent/agents/Worker.md", `---\ndescription: w\nextensions: ${list}\n---\n`);
			expect(verdict(world).gated, list).toBe(true);
		}
		world.writeJson("agent/settings.json", {});
		const entry = path.join(world.gateDir, "dist", "index.js");
		world.write("agent/agents/Worker.md", `---\ndescription: w\nextensions: ${entry}\n---\n`);
		expect(verdict(world)).toEqual({
			gated: true,
			via: `${JSON.stringify(entry)} in the agent file ${path.join(world.agentDir, "agents", "Worker.md")}`,
		});
		// A path keeps what answers to the path's own name: the package directory's ("gate"), which its entry
		// does not answer to, so the entry it loads is dropped again.
		world.write("agent/agents/Worker.md", `---\ndescription: w\nextensions: ${world.gateDir}\n---\n`);
		expect(verdict(world).gated).toBe(false);
		world.write("agent/agents/Worker.md", `---\ndescription: w\nextensions: ${world.gateDir}, dist\n---\n`);
		expect(verdict(world).gated).toBe(true);
	});

	it("a project agent file wins over the agent dir's of the same name", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		world.write("agent/agents/worker.md", "---\ndescription: w\n---\n");
		expect(verdict(world).gated).toBe(true);
		world.write("work/.agents/agents/worker.md", "---\ndescription: w\nextensions: false\n---\n");
		expect(verdict(world).gated).toBe(false);
	});

	it("the agent file is read once: with the call, whose foreground and verdict both come from that one read", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir] });
		const file = world.write("work/.pi/agents/worker.md", "---\ndescription: w\nisolated: true\n---\n");
		const reads: string[] = [];
		const files = {
			...nodeFileView,
			readText: (at: string) => {
				reads.push(at);
				return nodeFileView.readText(at);
			},
		};
		const call = readDelegationCall(TINTINWEB, { subagent_type: "worker" }, world.work, {
			agentDir: world.agentDir,
			files,
		});
		expect(ungated(childGateVerdict(world.query(TINTINWEB, call, { files }))).fix.file).toBe(file);
		expect(reads.filter((at) => at === file)).toHaveLength(1);
	});
});
