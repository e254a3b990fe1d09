/**
 * `npm install` on a machine whose Node is older than pi needs says once what is going on, instead of over a
 * hundred EBADENGINE warnings (adr/0001): the preinstall note, run by the machine's old Node and by Node 22.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { node22Binary, REPO_ROOT } from "../harness/paths.ts";

const NOTE = path.join(REPO_ROOT, "scripts", "node-version-note.cjs");
const PACKAGE = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
/** The machine's own Node (20 here and in CI), where there is one. */
const MACHINE_NODE = ["/usr/bin/node", "/usr/local/bin/node"].find((file) => existsSync(file));

/** The note as npm runs it: `node` (node@22, first on PATH once installed), npm's own Node in its user agent. */
function runNote(node: string, cwd: string, initCwd: string, npmNode?: string) {
	const { INIT_CWD: _, npm_config_user_agent: __, ...env } = process.env;
	const agent =
		npmNode === undefined ? {} : { npm_config_user_agent: `npm/11.19.1 node/${npmNode} linux x64` };
	return spawnSync(node, [NOTE], { cwd, env: { ...env, ...agent, INIT_CWD: initCwd }, encoding: "utf8" });
}

describe("npm install on an older Node", () => {
	it("npm's warnings are silenced in the checkout and the preinstall runs the note when it is there", () => {
		expect(readFileSync(path.join(REPO_ROOT, ".npmrc"), "utf8")).toMatch(/^loglevel=error$/m);
		expect(PACKAGE.scripts.preinstall).toBe(
			"test -f scripts/node-version-note.cjs && node scripts/node-version-note.cjs || true",
		);
		// Installed as a dependency the script is not shipped: the preinstall must pass without it.
		const elsewhere = mkdtempSync(path.join(os.tmpdir(), "pph-preinstall-"));
		expect(spawnSync("sh", ["-c", PACKAGE.scripts.preinstall], { cwd: elsewhere }).status).toBe(0);
	});

	it("npm on Node 22 says nothing", () => {
		const run = runNote(node22Binary(), REPO_ROOT, REPO_ROOT, "v22.23.3");
		expect(run.status).toBe(0);
		expect(run.stdout).toBe("");
	});

	it("npm on Node 20 says why the install works, though node@22 runs the note", () => {
		const run = runNote(node22Binary(), REPO_ROOT, REPO_ROOT, "v20.20.2");
		expect(run.status).toBe(0);
		expect(run.stdout.split("\n")[0]).toBe(
			"pi-permission-hub: this machine's Node is v20.20; pi and this project need Node >= 22.19.",
		);
	});

	it.runIf(MACHINE_NODE !== undefined)(
		"the machine's older Node says once why the install still works",
		() => {
			const node = MACHINE_NODE ?? "";
			const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
			const [major = 0, minor = 0] = version.slice(1).split(".").map(Number);
			expect(major < 22 || (major === 22 && minor < 19), `${node} is ${version}`).toBe(true);
			const run = runNote(node, REPO_ROOT, REPO_ROOT);
			expect(run.status).toBe(0);
			expect(run.stdout.split("\n")[0]).toBe(
				`pi-permission-hub: this machine's Node is ${version}; pi and this project need Node >= 22.19.`,
			);
			expect(run.stdout).toContain("`npm test` works as is");
			// Where npm runs it for a dependency (another directory than the install's), it is silent.
			expect(runNote(node, REPO_ROOT, os.tmpdir()).stdout).toBe("");
		},
	);
});
