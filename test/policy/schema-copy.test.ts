import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { refreshSchemaCopies } from "../../src/policy/config-json-schema.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import { tempDir } from "./fixtures.ts";

const shipped = (name: string): string => readFileSync(path.join(REPO_ROOT, "schema", name), "utf8");

describe("the schema copies next to the user config", () => {
	it("are written when missing, left alone when current, and rewritten when they differ", async () => {
		const agentDir = path.join(tempDir(), "agent");
		expect(await refreshSchemaCopies(agentDir, REPO_ROOT)).toBe("written");
		// Next to the user config, where its `"$schema": "./config.schema.json"` finds it.
		const user = path.join(agentDir, "pi-permission-hub", "config.schema.json");
		const project = path.join(path.dirname(user), "project-config.schema.json");
		expect(readFileSync(user, "utf8")).toBe(shipped("config.schema.json"));
		expect(readFileSync(project, "utf8")).toBe(shipped("project-config.schema.json"));
		// Readable by an editor, inside the gate's private directory.
		expect(statSync(path.dirname(user)).mode & 0o777).toBe(0o700);

		const before = statSync(user).mtimeMs;
		expect(await refreshSchemaCopies(agentDir, REPO_ROOT)).toBe("current");
		expect(statSync(user).mtimeMs).toBe(before);

		writeFileSync(user, "{}\n");
		expect(await refreshSchemaCopies(agentDir, REPO_ROOT)).toBe("written");
		expect(readFileSync(user, "utf8")).toBe(shipped("config.schema.json"));
	});

	it("rejects when the package has no schema to copy (the caller logs it; decisions never depend on it)", async () => {
		await expect(refreshSchemaCopies(path.join(tempDir(), "agent"), tempDir())).rejects.toThrow(/ENOENT/);
	});
});
