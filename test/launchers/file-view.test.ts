import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { cleanupWorlds, launcherWorld } from "./launcher-world.ts";

afterEach(cleanupWorlds);

describe("the live file view", () => {
	it("tells a file's text, nothing there, and something there it cannot read apart", () => {
		const world = launcherWorld();
		const file = world.write("a/file.txt", "text");
		expect(nodeFileView.readText(file)).toEqual({ state: "text", text: "text" });
		expect(nodeFileView.readText(path.join(world.root, "a", "none"))).toEqual({ state: "missing" });
		// A path through a file, and a dangling link, lead nowhere.
		expect(nodeFileView.readText(path.join(file, "below"))).toEqual({ state: "missing" });
		const dangling = world.link(path.join(world.root, "gone"), "a/dangling");
		expect(nodeFileView.readText(dangling)).toEqual({ state: "missing" });
		expect(nodeFileView.readText(path.join(world.root, "a"))).toEqual({
			state: "unreadable",
			problem: "is not a regular file",
			tooLarge: false,
		});
		const big = path.join(world.root, "a", "big");
		writeFileSync(big, "x".repeat(4 * 1024 * 1024 + 1));
		expect(nodeFileView.readText(big)).toMatchObject({ state: "unreadable", tooLarge: true });
	});

	it("a missing path has no canonical path and no kind; a link resolves to its target", () => {
		const world = launcherWorld();
		expect(nodeFileView.realPath(path.join(world.root, "none"))).toBeNull();
		expect(nodeFileView.kind(path.join(world.root, "none"))).toBeNull();
		const linked = world.link(world.gateDir, "links/gate");
		expect(nodeFileView.realPath(linked)).toBe(world.gateDir);
		expect(nodeFileView.kind(linked)).toBe("dir");
		expect(nodeFileView.list(world.gateDir)).toEqual(["dist", "package.json", "src"]);
		expect(nodeFileView.list(path.join(world.root, "none"))).toEqual([]);
	});
});
