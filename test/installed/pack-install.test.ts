/**
 * The newcomer's path from a tarball: `npm pack`, install it the way the README says, `pi install` the installed
 * folder into an isolated agent dir, and watch the installed copy (not this checkout's dist/) gate a call: the
 * print-mode run has nobody to ask, so `rm -f victim.txt` is parked; the installed CLI lists it and approves it;
 * the next attempt runs.
 *
 * Also pins down the traps next to it: `pi install <file>.tgz` and `pi install npm:<file>.tgz` are accepted by pi
 * but load no gate; `doctor` names such an entry and how to install instead.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseAuditLine } from "../../src/audit/audit-entry.ts";
import { writeScript } from "../harness/faux-script.ts";
import {
	addFauxModel,
	installIntoFolder,
	packRepository,
	runPi as pi,
	piInstallNpm,
	readSettings,
} from "../harness/packed-package.ts";
import { describeResult, runCommand } from "../harness/run-command.ts";
import { createSandbox, type Sandbox } from "../harness/sandbox.ts";

const pendingSchema = z.looseObject({
	ok: z.literal(true),
	requests: z.array(z.looseObject({ id: z.string(), preview: z.string() })),
});

let scratch = "";
let tarball = "";
let packedFiles: readonly string[] = [];
/** `<scratch>/pkgs/node_modules/pi-permission-hub`: the package as npm installed it from the tarball. */
let installed = "";
const sandboxes: Sandbox[] = [];

/** The CLI as npm linked it for the installed package (`<prefix>/node_modules/.bin`), against the sandbox. */
function installedCli(sb: Sandbox, args: readonly string[]) {
	return runCommand(path.join(installed, "..", ".bin", "pi-permission-hub"), args, {
		cwd: sb.workDir,
		env: sb.env(),
		timeoutMs: 30_000,
	});
}

async function newcomerSandbox(): Promise<Sandbox> {
	const sb = await createSandbox();
	sandboxes.push(sb);
	await sb.writeWorkFile("victim.txt", "keep me");
	await writeScript(sb, {
		conversations: [
			{ turns: [{ calls: [{ tool: "bash", input: { command: "rm -f victim.txt" } }] }, { echo: true }] },
		],
	});
	return sb;
}

function auditOf(sb: Sandbox) {
	const file = path.join(sb.agentDir, "pi-permission-hub", "audit.jsonl");
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => parseAuditLine(line));
}

beforeAll(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), "pph-newcomer-"));
	const packed = await packRepository(scratch);
	tarball = packed.tarball;
	packedFiles = packed.files;
	installed = await installIntoFolder(tarball, path.join(scratch, "pkgs"));
}, 240_000);

afterAll(async () => {
	await Promise.all(sandboxes.splice(0).map((sb) => sb.cleanup()));
	if (scratch) await rm(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

describe("npm pack, then install into an isolated agent dir", () => {
	it("packs the built extension, the CLI and the docs, and no tests", () => {
		expect(packedFiles).toEqual(
			expect.arrayContaining([
				"package.json",
				"README.md",
				"dist/extension/index.js",
				"dist/api.d.ts",
				"dist/cli/main.js",
				"bin/pi-permission-hub.mjs",
				"schema/config.schema.json",
			]),
		);
		expect(packedFiles.filter((f) => f.startsWith("test/") || f.startsWith("demo/"))).toEqual([]);
		// The runtime dependencies came with it; pi's own packages are peers that pi provides.
		for (const dependency of ["zod", "web-tree-sitter", "tree-sitter-bash", "chokidar"]) {
			expect(existsSync(path.join(installed, "..", dependency, "package.json")), dependency).toBe(true);
		}
		expect(existsSync(path.join(installed, "..", "@earendil-works"))).toBe(false);
	});

	it("`pi install <installed folder>` gates a call: parked, approved with the installed CLI, then run once", async () => {
		const sb = await newcomerSandbox();

		const install = await pi(sb, ["install", installed]);
		expect(install.code, describeResult("pi install", install)).toBe(0);
		const settings = await readSettings(sb);
		expect(settings.packages?.map((p) => path.resolve(sb.agentDir, p))).toEqual([installed]);
		await addFauxModel(sb);
		const list = await pi(sb, ["list"]);
		expect(list.stdout).toContain(installed);

		const first = await pi(sb, ["--model", "faux/faux-1", "--no-session", "-p", "clean up"]);
		expect(first.code, describeResult("pi -p", first)).toBe(0);
		expect(first.stdout).toMatch(
			/Blocked by pi-permission-hub: this bash call \(rm -f victim\.txt\) .*pending approval/,
		);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(auditOf(sb)).toMatchObject([
			{ tool: "bash", preview: "rm -f victim.txt", outcome: "pending", origin: { kind: "headless" } },
		]);
		// The installed copy keeps its schema next to the user config, for `"$schema": "./config.schema.json"`.
		await expect
			.poll(() => existsSync(path.join(sb.agentDir, "pi-permission-hub", "config.schema.json")))
			.toBe(true);
		expect(readFileSync(path.join(sb.agentDir, "pi-permission-hub", "config.schema.json"), "utf8")).toBe(
			readFileSync(path.join(installed, "schema", "config.schema.json"), "utf8"),
		);

		const pending = await installedCli(sb, ["pending", "--format", "json"]);
		expect(pending.code, describeResult("pi-permission-hub pending", pending)).toBe(0);
		const [request] = pendingSchema.parse(JSON.parse(pending.stdout)).requests;
		expect(request?.preview).toBe("rm -f victim.txt");
		const approve = await installedCli(sb, ["approve", request?.id ?? "missing"]);
		expect(approve.code, describeResult("pi-permission-hub approve", approve)).toBe(0);

		const second = await pi(sb, ["--model", "faux/faux-1", "--no-session", "-p", "clean up"]);
		expect(second.code, describeResult("pi -p (after approval)", second)).toBe(0);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		expect(auditOf(sb).at(-1)).toMatchObject({ tool: "bash", preview: "rm -f victim.txt", outcome: "allow" });
	});

	it("`pi install <file>.tgz` is accepted by pi but the tarball cannot load: pi refuses to run, nothing runs", async () => {
		const sb = await newcomerSandbox();

		const install = await pi(sb, ["install", tarball]);
		expect(install.code, describeResult("pi install <tgz>", install)).toBe(0);
		await addFauxModel(sb);

		const run = await pi(sb, ["--model", "faux/faux-1", "--no-session", "-p", "clean up"]);
		expect(run.code).not.toBe(0);
		expect(run.stderr).toContain('Unknown file extension ".tgz"');
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(await unloadableEntries(sb)).toEqual([expect.stringContaining("pi cannot load a tarball")]);
	});

	it("`pi install npm:<file>.tgz` installs but loads no gate (the call runs ungated); doctor says why", async () => {
		const sb = await newcomerSandbox();

		const install = await piInstallNpm(sb, tarball);
		expect(install.code, describeResult("pi install npm:<tgz>", install)).toBe(0);
		await addFauxModel(sb);

		// pi takes the whole spec as a registry name and finds no package of that name: no gate, the rm runs.
		const run = await pi(sb, ["--model", "faux/faux-1", "--no-session", "-p", "clean up"]);
		expect(run.code, describeResult("pi -p", run)).toBe(0);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		expect(await unloadableEntries(sb)).toEqual([
			expect.stringContaining('reads everything after "npm:" as the name of a package'),
		]);
	});
});

const doctorSchema = z.looseObject({
	findings: z.array(z.looseObject({ id: z.string(), explanation: z.string(), fix: z.string() })),
});

/** What the installed CLI's doctor says about `packages` entries pi cannot load; each names the way out. */
async function unloadableEntries(sb: Sandbox): Promise<string[]> {
	const result = await installedCli(sb, ["doctor", "--format", "json"]);
	expect(result.code, describeResult("pi-permission-hub doctor", result)).toBe(1);
	const found = doctorSchema
		.parse(JSON.parse(result.stdout))
		.findings.filter((f) => f.id === "package-entry-unloadable");
	for (const f of found) expect(f.fix).toContain("npm install --prefix ~/pi-packages --legacy-peer-deps");
	return found.map((f) => f.explanation);
}
