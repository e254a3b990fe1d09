import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import {
	changedSettingsText,
	type SettingsChange,
	SettingsWriteError,
	writeSettingsChanges,
} from "../../src/launchers/settings-change.ts";
import { cleanupWorlds, launcherWorld } from "./launcher-world.ts";

afterEach(cleanupWorlds);

const packages = (file: string, before: string[] | null, after: string[]): SettingsChange => ({
	file,
	key: "packages",
	before,
	after,
});

describe("the settings writer doctor --fix and fix and continue share", () => {
	it("edits the text in place: other keys, order, indentation, a BOM and comments stay", () => {
		const text = '\uFEFF{\n    // mine\n    "theme": "dark",\n    "packages": ["a"]\n}\n';
		const out = changedSettingsText(text, [
			packages("f", ["a"], ["a", "/gate"]),
			{ file: "f", key: "subagents.defaultExtensions", before: null, after: ["/gate"] },
		]);
		expect(out.startsWith('\uFEFF{\n    // mine\n    "theme": "dark",\n    "packages": [')).toBe(true);
		expect(out).toContain('"subagents": {\n        "defaultExtensions": [\n            "/gate"');
		expect(changedSettingsText(null, [packages("f", null, ["/gate"])])).toBe(
			'{\n  "packages": [\n    "/gate"\n  ]\n}\n',
		);
	});

	it("writes only over the text it was worked out from, creating a missing file and its directory", () => {
		const world = launcherWorld();
		const file = path.join(world.root, "new", "settings.json");
		writeSettingsChanges([{ change: packages(file, null, ["/gate"]), analysedText: null }], nodeFileView);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ packages: ["/gate"] });

		const checked = readFileSync(file, "utf8");
		writeFileSync(file, '{ "packages": ["/other"] }\n');
		const stale = { change: packages(file, ["/gate"], ["/gate", "/x"]), analysedText: checked };
		expect(() => writeSettingsChanges([stale], nodeFileView)).toThrow(SettingsWriteError);
		expect(readFileSync(file, "utf8")).toBe('{ "packages": ["/other"] }\n');
	});

	it("fails closed when the file cannot be written", () => {
		const world = launcherWorld();
		// Its directory is a file: nothing can be created there (whoever runs the test, root included).
		const blocker = world.write("blocker", "not a directory\n");
		const file = path.join(blocker, "settings.json");
		const planned = { change: packages(file, null, ["/gate"]), analysedText: null };
		expect(() => writeSettingsChanges([planned], nodeFileView)).toThrow(/^cannot write .*settings\.json/);
		expect(readFileSync(blocker, "utf8")).toBe("not a directory\n");
	});
});
