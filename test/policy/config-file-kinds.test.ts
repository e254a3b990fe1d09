/**
 * A repository controls its project file, and may make it something other than a file: a FIFO nobody writes
 * to, a link to the terminal or to an endless device. Loading the policy must neither block nor read those;
 * the file is a config error (fail closed). Loaded in a child process: a read that blocks would hang this one.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { node22Binary } from "../harness/paths.ts";
import { tempDir } from "./fixtures.ts";

const LOAD_POLICY = resolve(import.meta.dirname, "../../src/policy/load-policy.ts");

/** Loads the policy of a trusted project in `root/project` in a child; its config errors, or null if it hung. */
function loadInChild(root: string): string[] | null {
	const script = `
		import { loadPolicy } from ${JSON.stringify(LOAD_POLICY)};
		const root = ${JSON.stringify(root)};
		const policy = loadPolicy({ agentDir: root + "/agent", cwd: root + "/project", homeDir: root,
			projectTrusted: true, managedFile: root + "/managed.json" });
		process.stdout.write(JSON.stringify(policy.configErrors.map((e) => e.message)));`;
	const scriptFile = join(root, "load.ts");
	writeFileSync(scriptFile, script);
	const child = spawnSync(node22Binary(), [scriptFile], {
		encoding: "utf8",
		timeout: 10_000,
		stdio: ["ignore", "pipe", "pipe"],
	});
	if (child.error !== undefined || child.status !== 0) return null;
	return JSON.parse(child.stdout) as string[];
}

function project(): { root: string; configFile: string } {
	const root = tempDir();
	mkdirSync(join(root, "project", ".pi"), { recursive: true });
	return { root, configFile: join(root, "project", ".pi", "pi-permission-hub.json") };
}

describe("a project config that is not a regular file", () => {
	it("is a config error, without blocking, when it is a FIFO nobody writes to", () => {
		const { root, configFile } = project();
		execFileSync("mkfifo", [configFile]);
		const errors = loadInChild(root);
		expect(errors).not.toBeNull();
		expect(errors?.join("\n")).toContain("is not a regular file");
	});

	it("is a config error, unread, when it links to an endless device", () => {
		const { root, configFile } = project();
		symlinkSync("/dev/zero", configFile);
		const errors = loadInChild(root);
		expect(errors).not.toBeNull();
		expect(errors?.join("\n")).toContain("is not a regular file");
	});

	it("still loads a regular file (a tightening rule is in force, no error)", () => {
		const { root, configFile } = project();
		writeFileSync(
			configFile,
			'{ "rules": [{ "surface": "command", "pattern": "curl *", "action": "deny" }] }',
		);
		expect(loadInChild(root)).toEqual([]);
	});
});
