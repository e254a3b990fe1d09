import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ChildGateVerdict, childGateVerdict } from "../../src/launchers/child-gate.ts";
import type { DelegationCall } from "../../src/launchers/known-launcher.ts";
import {
	cleanupWorlds,
	type LauncherWorld,
	launcherWorld,
	PI_SUBAGENTS,
	plantImpostor,
} from "./launcher-world.ts";

afterEach(cleanupWorlds);

function verdict(
	world: LauncherWorld,
	call: Partial<DelegationCall> = { agents: ["delegate"] },
): ChildGateVerdict {
	return childGateVerdict(world.query(PI_SUBAGENTS, call));
}

function ungated(result: ChildGateVerdict): Extract<ChildGateVerdict, { gated: false }> {
	if (result.gated) throw new Error(`expected ungated, got gated via ${result.via}`);
	return result;
}

function agentFile(name: string, extra: string): string {
	return `---\nname: ${name}\ndescription: test agent\n${extra}---\nYou work.\n`;
}

describe("pi-subagents children: only the extensions its settings and agent files name", () => {
	it("no defaults: the built-in agent loads nothing of ours; the fix adds us to the user's subagents.defaultExtensions", () => {
		const world = launcherWorld();
		const result = ungated(verdict(world));
		const settings = path.join(world.agentDir, "settings.json");
		expect(result.why).toContain('agent "delegate"');
		expect(result.why).toContain("`subagents.defaultExtensions` is not set");
		expect(result.fix.file).toBe(settings);
		expect(result.fix.field).toBe("subagents.defaultExtensions");
		expect(result.fix.text).toContain(
			`add ${JSON.stringify(world.gateDir)} to \`subagents.defaultExtensions\` in ${settings}`,
		);
		expect(result.fix.text).toContain("list there every extension the subagents need");
	});

	it("the agent dir's own `packages` do not reach an in-process child", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [world.gateDir], extensions: [world.gateDir] });
		expect(verdict(world).gated).toBe(false);
	});

	it("defaults naming the package (absolute, ~/, a file entry, relative to the child's cwd) gate every agent", () => {
		const world = launcherWorld();
		for (const entry of [
			world.gateDir,
			"~/../gate",
			path.join(world.gateDir, "dist", "index.js"),
			"../gate",
		]) {
			world.writeJson("agent/settings.json", {
				subagents: { defaultExtensions: [world.otherExtension, entry] },
			});
			const result = verdict(world, { agents: null });
			expect(result.gated, entry).toBe(true);
		}
	});

	it("a missing path in the defaults is reported as missing (pi-subagents skips it silently)", () => {
		const world = launcherWorld();
		const missing = path.join(world.root, "moved", "pi-permission-hub");
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: [missing] } });
		const result = ungated(verdict(world));
		expect(result.why).toContain(`${missing} does not exist`);
	});

	it("an npm: source in the defaults is installed at launch where the check does not look: not counted", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: ["npm:pi-permission-hub"] } });
		expect(verdict(world).gated).toBe(false);
	});

	it("a project's .pi/settings.json replaces the defaults (trusted or not); the fix names the project file", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });
		expect(verdict(world).gated).toBe(true);
		const projectSettings = world.writeJson("work/.pi/settings.json", {
			subagents: { defaultExtensions: [world.otherExtension] },
		});
		const result = ungated(verdict(world));
		expect(result.fix.file).toBe(projectSettings);
		expect(result.fix.field).toBe("subagents.defaultExtensions");
		expect(result.why).toContain(JSON.stringify(world.otherExtension));
		// A project settings file without the key leaves the user's defaults in force.
		world.writeJson("work/.pi/settings.json", { subagents: { defaultModel: "faux/faux-1" } });
		expect(verdict(world).gated).toBe(true);
	});

	it("a package a project plants under the gate's name is not the gate in its defaults: only this copy counts", () => {
		const world = launcherWorld();
		const impostor = plantImpostor(world, "work/.pi/impostor");
		world.writeJson("work/.pi/settings.json", { subagents: { defaultExtensions: [impostor] } });
		expect(verdict(world).gated).toBe(false);
		world.writeJson("work/.pi/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });
		expect(verdict(world).gated).toBe(true);
	});

	it("every project root from the cwd upward is a candidate: an outer one without the gate makes it ungated", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });
		world.writeJson("work/.pi/settings.json", { subagents: { defaultExtensions: [world.otherExtension] } });
		const inner = path.join(world.work, "inner");
		world.writeJson("work/inner/.pi/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });
		expect(verdict(world, { agents: ["delegate"], cwds: [inner] }).gated).toBe(false);
	});

	it("an agent file with its own `extensions:` wins over the defaults; the fix names that file", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });
		const file = world.write(
			"work/.pi/agents/delegate.md",
			agentFile("delegate", `extensions: ${world.otherExtension}\n`),
		);
		const result = ungated(verdict(world));
		expect(result.fix.file).toBe(file);
		expect(result.fix.field).toBe("extensions:");
		expect(result.fix.text).toBe(
			`add ${JSON.stringify(world.gateDir)} to the \`extensions:\` list of ${file}`,
		);
		// Only that agent: another one still gets the defaults.
		expect(verdict(world, { agents: ["worker"] }).gated).toBe(true);
		// Without an agent name, any agent may start: the override counts.
		expect(verdict(world, { agents: null }).gated).toBe(false);
	});

	it("agent-file entries: `./`-relative to the file, YAML block lists, subagentOnlyExtensions and path-like tools all load", () => {
		const world = launcherWorld();
		world.link(world.gateDir, "agent/agents/vendor/pph");
		world.write("agent/agents/a.md", agentFile("a", "extensions: ./vendor/pph\n"));
		world.write(
			"agent/agents/b.md",
			agentFile("b", `extensions:\n  - ${world.otherExtension}\n  - ${world.gateDir}\n`),
		);
		world.write("agent/agents/c.md", agentFile("c", `subagentOnlyExtensions: ${world.gateDir}\n`));
		world.write(
			"agent/agents/d.md",
			agentFile("d", `tools: read, bash, ${path.join(world.gateDir, "dist", "index.js")}\n`),
		);
		world.write("agent/agents/e.md", agentFile("e", "package: acme\naliases: eve, evie\n"));
		for (const agent of ["a", "b", "c", "d"])
			expect(verdict(world, { agents: [agent] }).gated, agent).toBe(true);
		expect(verdict(world, { agents: ["acme.e"] }).gated).toBe(false);
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });
		expect(verdict(world, { agents: ["evie"] }).gated).toBe(true);
	});

	it("settings agentOverrides apply last: `extensions: false` strips the gate, a provider's override may too", () => {
		const world = launcherWorld();
		const settings = world.writeJson("agent/settings.json", {
			subagents: { defaultExtensions: [world.gateDir], agentOverrides: { delegate: { extensions: false } } },
		});
		const stripped = ungated(verdict(world));
		expect(stripped.fix.file).toBe(settings);
		expect(stripped.fix.field).toBe("subagents.agentOverrides.delegate.extensions");
		world.writeJson("agent/settings.json", {
			subagents: {
				defaultExtensions: [world.gateDir],
				agentOverridesByProvider: { faux: { delegate: { extensions: [world.otherExtension] } } },
			},
		});
		expect(ungated(verdict(world)).fix.field).toBe(
			"subagents.agentOverridesByProvider.faux.delegate.extensions",
		);
		world.writeJson("agent/settings.json", {
			subagents: { agentOverrides: { delegate: { subagentOnlyExtensions: [world.gateDir] } } },
		});
		expect(verdict(world).gated).toBe(true);
	});

	it("PI_SUBAGENT_EXTRA_AGENT_DIRS and ~/.agents are read too", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { subagents: { defaultExtensions: [world.gateDir] } });
		world.write("extra/delegate.md", agentFile("delegate", `extensions: ${world.otherExtension}\n`));
		const extra = childGateVerdict(
			world.query(
				PI_SUBAGENTS,
				{ agents: ["delegate"] },
				{ env: { PI_SUBAGENT_EXTRA_AGENT_DIRS: path.join(world.root, "extra") } },
			),
		);
		expect(extra.gated).toBe(false);
		world.write("home/.agents/worker.md", agentFile("worker", "extensions: ./nothing-here\n"));
		expect(verdict(world, { agents: ["worker"] }).gated).toBe(false);
		// `.agents/skills` holds skills, not agents.
		world.write("home/.agents/skills/scout.md", agentFile("scout", "extensions: ./nothing-here\n"));
		expect(verdict(world, { agents: ["scout"] }).gated).toBe(true);
	});

	it("unreadable settings fail closed; a call that starts no child needs no gate", () => {
		const world = launcherWorld();
		world.write("agent/settings.json", "[1, 2");
		expect(ungated(verdict(world)).why).toContain("cannot be read");
		expect(verdict(world, { launches: false })).toEqual({ gated: true, via: "the call starts no subagent" });
	});
});
