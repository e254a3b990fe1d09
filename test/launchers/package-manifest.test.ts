import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { gatePackageAt, loadsGate } from "../../src/launchers/package-manifest.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import { cleanupWorlds, launcherWorld } from "./launcher-world.ts";

afterEach(cleanupWorlds);

describe("which paths load a copy of the gate", () => {
	it("finds the package of a file or directory inside it, with the entries its pi.extensions lists", () => {
		const world = launcherWorld();
		const fromFile = gatePackageAt(path.join(world.gateDir, "dist", "api.js"), nodeFileView);
		expect(fromFile?.root).toBe(world.gateDir);
		// What pi loads: the manifest's entries. The source entry is not one, though it is in the package.
		expect(fromFile?.entries).toEqual([path.join(world.gateDir, "dist", "index.js")]);
		expect(gatePackageAt(world.otherExtension, nodeFileView)).toBeNull();
		expect(gatePackageAt(path.join(world.root, "nowhere"), nodeFileView)).toBeNull();
	});

	it("this repository is a copy of the gate (what the gate's own module finds at run time)", () => {
		const own = gatePackageAt(path.join(REPO_ROOT, "src", "gate", "delegation-guard.ts"), nodeFileView);
		expect(own?.root).toBe(REPO_ROOT);
		// Exactly what this package's manifest lists for pi (built files: run after the build).
		const manifest = z
			.object({ pi: z.object({ extensions: z.array(z.string()) }) })
			.parse(JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")));
		const listed = manifest.pi.extensions.map((entry) => path.resolve(REPO_ROOT, entry));
		expect(listed.length).toBeGreaterThan(0);
		expect(own?.entries).toEqual(listed);
		expect(own?.entries).not.toContain(path.join(REPO_ROOT, "src", "index.ts"));
	});

	it("the built bundle belongs to this package, past the package.json files that set its module types (the entry's named like the package)", () => {
		const built = path.join(REPO_ROOT, "dist", "extension");
		const gate = path.join(built, "gate", "session-gate.js");
		// Run after the build: both scope markers are there; the entry's names the package and lists the entry, for
		// @tintinweb/pi-subagents (adr/0026), and neither gives Node an `exports` to resolve through.
		const entryMarker = JSON.parse(readFileSync(path.join(built, "package.json"), "utf8"));
		expect(entryMarker).toEqual({
			name: "pi-permission-hub",
			type: "commonjs",
			pi: { extensions: ["./index.js"] },
		});
		const gateMarker = JSON.parse(readFileSync(path.join(built, "gate", "package.json"), "utf8"));
		expect(gateMarker).toEqual({ type: "module" });
		expect(gatePackageAt(gate, nodeFileView)?.root).toBe(REPO_ROOT);
		expect(gatePackageAt(path.join(built, "index.js"), nodeFileView)).toEqual({
			root: REPO_ROOT,
			entries: [path.join(built, "index.js")],
		});
		expect(loadsGate(path.join(built, "index.js"), nodeFileView)).toBe(true);
		expect(loadsGate(built, nodeFileView)).toBe(true);
		expect(loadsGate(gate, nodeFileView)).toBe(false);
	});

	it("a package.json named like the package around it belongs to that package; one past a node_modules, or named otherwise, is a package of its own", () => {
		const world = launcherWorld();
		world.writeJson("gate/dist/package.json", {
			name: "pi-permission-hub",
			pi: { extensions: ["./index.js"] },
		});
		expect(gatePackageAt(path.join(world.gateDir, "dist", "index.js"), nodeFileView)).toEqual(world.gate);
		const installed = path.join(world.gateDir, "node_modules", "pi-permission-hub");
		world.writeJson("gate/node_modules/pi-permission-hub/package.json", {
			name: "pi-permission-hub",
			pi: { extensions: ["./main.js"] },
		});
		world.write("gate/node_modules/pi-permission-hub/main.js", "export default function gate() {}\n");
		expect(gatePackageAt(path.join(installed, "main.js"), nodeFileView)?.root).toBe(installed);
		world.writeJson("gate/vendored/package.json", { name: "vendored", pi: { extensions: ["./index.js"] } });
		world.write("gate/vendored/index.js", "export default function vendored() {}\n");
		expect(gatePackageAt(path.join(world.gateDir, "vendored", "index.js"), nodeFileView)).toBeNull();
	});

	it("the package directory and its entry files load it; another module of it, another package, a missing path do not", () => {
		const world = launcherWorld();
		expect(loadsGate(world.gateDir, nodeFileView)).toBe(true);
		expect(loadsGate(path.join(world.gateDir, "dist", "index.js"), nodeFileView)).toBe(true);
		// Not listed in pi.extensions: pi never loads it for this package, so neither does the check.
		expect(loadsGate(path.join(world.gateDir, "src", "index.ts"), nodeFileView)).toBe(false);
		expect(loadsGate(path.join(world.gateDir, "dist", "api.js"), nodeFileView)).toBe(false);
		expect(loadsGate(path.join(world.gateDir, "dist"), nodeFileView)).toBe(true);
		expect(loadsGate(world.otherExtension, nodeFileView)).toBe(false);
		expect(loadsGate(path.join(world.root, "gone", "pi-permission-hub"), nodeFileView)).toBe(false);
	});

	it("follows symlinks: a linked package directory or a linked entry file loads it", () => {
		const world = launcherWorld();
		const linkedDir = world.link(world.gateDir, "links/pph");
		const linkedFile = world.link(path.join(world.gateDir, "dist", "index.js"), "links/gate.js");
		expect(loadsGate(linkedDir, nodeFileView)).toBe(true);
		expect(loadsGate(linkedFile, nodeFileView)).toBe(true);
	});

	it("a wrapper directory loads it when its own manifest or index names a gate entry", () => {
		const world = launcherWorld();
		world.writeJson("wrapper/package.json", {
			name: "my-bundle",
			pi: { extensions: ["../gate/dist/index.js"] },
		});
		expect(loadsGate(path.join(world.root, "wrapper"), nodeFileView)).toBe(true);
		world.link(path.join(world.gateDir, "dist", "index.js"), "indexed/index.js");
		expect(loadsGate(path.join(world.root, "indexed"), nodeFileView)).toBe(true);
		// index.ts goes first; a link to a module pi.extensions does not list loads no gate.
		world.link(path.join(world.gateDir, "src", "index.ts"), "indexed/index.ts");
		expect(loadsGate(path.join(world.root, "indexed"), nodeFileView)).toBe(false);
	});

	it("a package with another name is not the gate, even with the same layout", () => {
		const world = launcherWorld();
		world.writeJson("impostor/package.json", {
			name: "pi-permission-hub-fork",
			pi: { extensions: ["./dist/index.js"] },
		});
		world.write("impostor/dist/index.js", "export default function x() {}\n");
		expect(loadsGate(path.join(world.root, "impostor"), nodeFileView)).toBe(false);
	});
});
