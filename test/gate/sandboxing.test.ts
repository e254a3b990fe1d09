/** Finding pi's own bash tool for the sandboxed bash (adr/0017): from the pi command that runs the process. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBashKit } from "../../src/gate/sandboxing.ts";

const PI_PACKAGE = join(
	import.meta.dirname,
	"..",
	"..",
	"node_modules",
	"@earendil-works",
	"pi-coding-agent",
);

describe("loadBashKit", () => {
	it("loads pi's bash tool and settings from the package of the pi command, bundled or not", async () => {
		for (const command of [
			join(PI_PACKAGE, "dist", "cli.js"),
			join(PI_PACKAGE, "dist", "bundle", "cli.js"),
		]) {
			const kit = await loadBashKit(command);
			expect(typeof kit.createBashTool).toBe("function");
			expect(kit.createBashTool("/").name).toBe("bash");
		}
	});

	it("says so when the process was not started by pi", async () => {
		await expect(loadBashKit(process.execPath)).rejects.toThrow("pi's package was not found above");
		await expect(loadBashKit(undefined)).rejects.toThrow("not started by a pi command");
	});
});
