import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { childGateVerdict } from "../../src/launchers/child-gate.ts";
import { cleanupWorlds, type LauncherWorld, launcherWorld, PROCESS_SUBAGENT } from "./launcher-world.ts";

afterEach(cleanupWorlds);

function verdict(world: LauncherWorld, projectTrusted = false) {
	return childGateVerdict(world.query(PROCESS_SUBAGENT, {}, { projectTrusted }));
}

describe("child pi processes: the agent dir's settings decide", () => {
	it("nothing configured: ungated, and the fix adds this package to `packages` in the agent dir's settings", () => {
		const world = launcherWorld();
		const result = verdict(world);
		expect(result.gated).toBe(false);
		if (result.gated) return;
		expect(result.why).toContain("does not inherit this session's -e flags");
		expect(result.fix).toEqual({
			file: path.join(world.agentDir, "settings.json"),
			field: "packages",
			text: expect.stringContaining(
				`add ${JSON.stringify(world.gateDir)} to \`packages\` in ${path.join(world.agentDir, "settings.json")}`,
			),
			// The change `doctor --fix` makes: the file is absent, so the key is created.
			automatic: {
				change: {
					file: path.join(world.agentDir, "settings.json"),
					key: "packages",
					before: null,
					after: [world.gateDir],
				},
				analysedText: null,
			},
		});
		// No lasting copy of the gate to point at: nothing a program may write.
		const unfixable = childGateVerdict(world.query(PROCESS_SUBAGENT, {}, { fixEntries: null }));
		expect(!unfixable.gated && unfixable.fix.automatic).toBeNull();
	});

	it("a `packages` entry counts whether absolute, relative to the agent dir (as `pi install` writes it), or under ~", () => {
		const world = launcherWorld();
		for (const entry of [world.gateDir, path.relative(world.agentDir, world.gateDir), "~/../gate"]) {
			world.writeJson("agent/settings.json", { packages: [entry] });
			expect(verdict(world), entry).toEqual({
				gated: true,
				via: `\`packages\` in ${path.join(world.agentDir, "settings.json")}`,
			});
		}
	});

	it("`npm:pi-permission-hub` counts once it is installed under the agent dir, not before", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: ["npm:pi-permission-hub@^0.1"] });
		expect(verdict(world).gated).toBe(false);
		world.link(world.gateDir, "agent/npm/node_modules/pi-permission-hub");
		expect(verdict(world).gated).toBe(true);
	});

	it("an `extensions` entry or the agent dir's extensions/ directory counts, unless an exclusion pattern may switch it off", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { extensions: [path.join(world.gateDir, "dist", "index.js")] });
		expect(verdict(world).gated).toBe(true);
		world.writeJson("agent/settings.json", {
			extensions: ["!**/index.js", path.join(world.gateDir, "dist", "index.js")],
		});
		expect(verdict(world).gated).toBe(false);
		world.writeJson("agent/settings.json", {});
		world.link(world.gateDir, "agent/extensions/pph");
		expect(verdict(world)).toEqual({ gated: true, via: `${path.join(world.agentDir, "extensions")}/` });
	});

	it("a module of the package that is not its entry, another extension, or a missing path does not count", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", {
			packages: [world.otherExtension, path.join(world.root, "missing", "pi-permission-hub")],
			extensions: [path.join(world.gateDir, "dist", "api.js")],
		});
		expect(verdict(world).gated).toBe(false);
	});

	it("a filtered package entry may leave the gate out, so it does not count", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: [{ source: world.gateDir, extensions: [] }] });
		expect(verdict(world).gated).toBe(false);
		world.writeJson("agent/settings.json", { packages: [{ source: world.gateDir, skills: [] }] });
		expect(verdict(world).gated).toBe(true);
	});

	it("a project's .pi/ counts only when pi trusts the project; a trusted project's entry replaces the user's", () => {
		const world = launcherWorld();
		world.writeJson("work/.pi/settings.json", { packages: [world.gateDir] });
		expect(verdict(world, false).gated).toBe(false);
		expect(verdict(world, true)).toEqual({
			gated: true,
			via: `\`packages\` in ${path.join(world.work, ".pi", "settings.json")}`,
		});
		world.writeJson("agent/settings.json", { packages: ["npm:pi-permission-hub"] });
		world.link(world.gateDir, "agent/npm/node_modules/pi-permission-hub");
		// A filtered project entry for the same package replaces the user's.
		world.writeJson("work/.pi/settings.json", {
			packages: [{ source: "npm:pi-permission-hub", extensions: [] }],
		});
		expect(verdict(world, true).gated).toBe(false);
		expect(verdict(world, false).gated).toBe(true);
		// So does a plain one: pi resolves it in the project's own npm dir, where it is not installed.
		world.writeJson("work/.pi/settings.json", { packages: ["npm:pi-permission-hub"] });
		expect(verdict(world, true).gated).toBe(false);
		world.link(world.gateDir, "work/.pi/npm/node_modules/pi-permission-hub");
		expect(verdict(world, true).gated).toBe(true);
	});

	it("a trusted project's `autoload: false` entry adjusts the user's entry: only its extension patterns may switch the gate off", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", { packages: ["npm:pi-permission-hub"] });
		world.link(world.gateDir, "agent/npm/node_modules/pi-permission-hub");
		// Without patterns pi loads the user's entry as it is (checked against pi's package manager).
		world.writeJson("work/.pi/settings.json", {
			packages: [{ source: "npm:pi-permission-hub", autoload: false }],
		});
		expect(verdict(world, true)).toEqual({
			gated: true,
			via: `\`packages\` in ${path.join(world.agentDir, "settings.json")}`,
		});
		world.writeJson("work/.pi/settings.json", {
			packages: [{ source: "npm:pi-permission-hub", autoload: false, extensions: ["-dist/index.js"] }],
		});
		expect(verdict(world, true).gated).toBe(false);
		expect(verdict(world, false).gated).toBe(true);
	});

	it("pi keeps the first user entry of a package: a filtered one hides a plain one listed after it", () => {
		const world = launcherWorld();
		world.writeJson("agent/settings.json", {
			packages: [{ source: world.gateDir, extensions: [] }, world.gateDir],
		});
		expect(verdict(world).gated).toBe(false);
		world.writeJson("agent/settings.json", {
			packages: [world.gateDir, { source: world.gateDir, extensions: [] }],
		});
		expect(verdict(world).gated).toBe(true);
	});

	it("extension patterns in a filter, or autoload off, are not evaluated: such an entry does not count", () => {
		const world = launcherWorld();
		for (const entry of [
			{ source: world.gateDir, extensions: ["dist/*.js"] },
			{ source: world.gateDir, autoload: false },
			{ source: world.gateDir, autoload: false, extensions: ["dist/index.js"] },
		]) {
			world.writeJson("agent/settings.json", { packages: [entry] });
			expect(verdict(world).gated, JSON.stringify(entry)).toBe(false);
		}
	});

	it("a glob in `extensions` may leave out the list's plain entries, and a `+` pattern cannot leave anything out", () => {
		const world = launcherWorld();
		const entry = path.join(world.gateDir, "dist", "index.js");
		world.writeJson("agent/settings.json", { extensions: ["other/*.ts", entry] });
		expect(verdict(world).gated).toBe(false);
		world.writeJson("agent/settings.json", { extensions: [`+${entry}`, entry] });
		expect(verdict(world).gated).toBe(true);
	});

	it("unreadable settings fail closed", () => {
		const world = launcherWorld();
		world.write("agent/settings.json", "{ not json");
		const result = verdict(world);
		expect(result.gated).toBe(false);
		if (!result.gated) expect(result.why).toContain("cannot be read");
	});

	it("every cwd the call names must have its children gated", () => {
		const world = launcherWorld();
		world.writeJson("work/a/.pi/settings.json", { packages: [world.gateDir] });
		const result = childGateVerdict(
			world.query(
				PROCESS_SUBAGENT,
				{ cwds: [path.join(world.work, "a"), path.join(world.work, "b")] },
				{ projectTrusted: true },
			),
		);
		expect(result.gated).toBe(false);
	});
});
