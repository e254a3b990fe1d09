import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFileView } from "../../src/launchers/node-file-view.ts";
import { agentOverridesOf, extensionSelection, readPiSettings } from "../../src/launchers/pi-settings.ts";
import { cleanupWorlds, launcherWorld } from "./launcher-world.ts";

afterEach(cleanupWorlds);

describe("reading a pi settings file", () => {
	it("missing, loaded (a byte-order mark ignored, the text kept), or invalid with the reason", () => {
		const world = launcherWorld();
		const file = path.join(world.agentDir, "settings.json");
		expect(readPiSettings(file, nodeFileView)).toEqual({ state: "missing", file });
		const text = '\uFEFF{ "packages": ["npm:x"], "theme": "dark" }';
		world.write("agent/settings.json", text);
		expect(readPiSettings(file, nodeFileView)).toEqual({
			state: "loaded",
			file,
			text,
			keys: { packages: ["npm:x"], theme: "dark" },
		});
		const invalid = (content: string) => {
			world.write("agent/settings.json", content);
			const read = readPiSettings(file, nodeFileView);
			return read.state === "invalid" ? read.problem : `not invalid: ${read.state}`;
		};
		expect(invalid("{ nope")).toMatch(/^is not valid JSON: /);
		expect(invalid("[1]")).toBe("is not a JSON object");
		expect(invalid('{ "subagents": { "defaultExtensions": "x" } }')).toMatch(
			/^has an invalid "subagents.defaultExtensions": /,
		);
		expect(invalid('{ "subagents": { "defaultExtensions": [" "] } }')).toContain("must not be empty");
		expect(invalid('{ "packages": [{ "source": "x", "autoload": "no" }] }')).toMatch(
			/^has an invalid "packages.0/,
		);
		expect(invalid('{ "subagents": { "agentOverrides": { "a": { "tools": "all" } } } }')).toMatch(
			/^has an invalid "subagents.agentOverrides.a.tools"/,
		);
	});

	it("something there that is not a readable file is invalid, not missing", () => {
		const world = launcherWorld();
		const file = path.join(world.agentDir, "settings.json");
		mkdirSync(file);
		expect(readPiSettings(file, nodeFileView)).toEqual({
			state: "invalid",
			file,
			problem: "is not a regular file",
		});
	});

	it("which extensions a packages entry loads, and every agent override with its JSON path", () => {
		expect(extensionSelection("npm:x")).toBe("all");
		expect(extensionSelection({ source: "x", skills: [] })).toBe("all");
		expect(extensionSelection({ source: "x", extensions: [] })).toBe("none");
		expect(extensionSelection({ source: "x", autoload: false })).toBe("none");
		expect(extensionSelection({ source: "x", autoload: false, extensions: [] })).toBe("none");
		expect(extensionSelection({ source: "x", extensions: ["dist/*.js"] })).toBe("patterns");
		expect(extensionSelection({ source: "x", autoload: false, extensions: ["a.js"] })).toBe("patterns");
		expect(
			agentOverridesOf({
				subagents: {
					agentOverrides: { a: { extensions: false } },
					agentOverridesByProvider: { faux: { b: { subagentOnlyExtensions: ["/x"] } } },
				},
			}),
		).toEqual([
			{
				agent: "a",
				override: { extensions: false },
				jsonPath: "subagents.agentOverrides.a",
				byProvider: false,
			},
			{
				agent: "b",
				override: { subagentOnlyExtensions: ["/x"] },
				jsonPath: "subagents.agentOverridesByProvider.faux.b",
				byProvider: true,
			},
		]);
	});
});
