import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { GATE_PACKAGE_NAME } from "../../src/launchers/package-manifest.ts";
import { readPiSettings, type UsableSettings } from "../../src/launchers/pi-settings.ts";
import {
	resourceLoads,
	resourceMayLoad,
	type SettingsResource,
	scopeResources,
} from "../../src/launchers/settings-resources.ts";
import { cleanupWorlds, type LauncherWorld, launcherWorld } from "./launcher-world.ts";

afterEach(cleanupWorlds);

function userResources(world: LauncherWorld, settings: Record<string, unknown>): SettingsResource[] {
	world.writeJson("agent/settings.json", settings);
	const read = readPiSettings(path.join(world.agentDir, "settings.json"), nodeFileView);
	if (read.state === "invalid") throw new Error(read.problem);
	const usable: UsableSettings = read;
	return scopeResources({ settings: usable, baseDir: world.agentDir }, null, world.home, nodeFileView);
}

const loads = (r: SettingsResource) => resourceLoads(r, GATE_PACKAGE_NAME, nodeFileView);
const mayLoad = (r: SettingsResource) => resourceMayLoad(r, GATE_PACKAGE_NAME, nodeFileView);

describe("what a pi process loads from a settings scope", () => {
	it("each packages entry where pi keeps it: npm and git installs under the agent dir, local paths against it", () => {
		const world = launcherWorld();
		world.link(world.gateDir, "agent/git/github.com/acme/pph");
		const resources = userResources(world, {
			packages: ["npm:pi-permission-hub@^0.1", "git:github.com/acme/pph@v1", "../gate"],
		});
		expect(resources.map((r) => [r.kind, r.location, r.present, loads(r), mayLoad(r)])).toEqual([
			["packages", path.join(world.agentDir, "npm", "node_modules", "pi-permission-hub"), false, false, true],
			["packages", path.join(world.agentDir, "git", "github.com", "acme", "pph"), true, true, true],
			["packages", world.gateDir, true, true, true],
		]);
	});

	it("a filter that leaves every extension out neither loads nor may load it; patterns may", () => {
		const world = launcherWorld();
		world.link(world.gateDir, "copy");
		const resources = userResources(world, {
			packages: [
				{ source: world.gateDir, extensions: [] },
				{ source: path.join(world.root, "copy"), extensions: ["dist/*.js"] },
			],
		});
		expect(resources.map((r) => [loads(r), r.filteredOut])).toEqual([
			[false, true],
			[false, false],
		]);
		expect(resources.map(mayLoad)).toEqual([false, true]);
	});

	it("`extensions` entries and the extensions/ directory by pi's discovery; an exclusion leaves them named, not loaded", () => {
		const world = launcherWorld();
		world.link(world.gateDir, "agent/extensions/pph");
		world.write("agent/extensions/own.ts", "export default function own(): void {}\n");
		world.link(world.root, "agent/pkgs");
		const settings = { extensions: ["pkgs/gate", "builtin:mcp", "+x"] };
		const resources = userResources(world, settings);
		expect(resources.map((r) => [r.kind, r.written, loads(r)])).toEqual([
			["extensions", "pkgs/gate", true],
			["extensions-dir", path.join(world.agentDir, "extensions", "own.ts"), false],
			["extensions-dir", path.join(world.agentDir, "extensions", "pph", "dist", "index.js"), true],
		]);
		const excluded = userResources(world, { extensions: [...settings.extensions, "!own.ts"] });
		expect(excluded.map((r) => [loads(r), mayLoad(r)])).toEqual([
			[false, true],
			[false, false],
			[false, true],
		]);
	});
});
