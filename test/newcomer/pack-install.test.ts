/**
 * The newcomer's path from a tarball: `npm pack`, install it the way the README says, `pi install` the installed
 * folder into an isolated agent dir, and watch the installed copy (not this checkout's dist/) gate a call: the
 * print-mode run has nobody to ask, so `rm -f victim.txt` is parked; the installed CLI lists it and approves it;
 * the next attempt runs.
 *
 * Also pins down the trap next to it: `pi install <file>.tgz` is accepted by pi but cannot be loaded.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseAuditLine } from "../../src/audit/audit-entry.ts";
import { writeScript } from "../harness/faux-script.ts";
import { FAUX_MODEL_EXTENSION, node22Binary, PI_CLI, REPO_ROOT } from "../harness/paths.ts";
import { describeResult, runCommand } from "../harness/run-command.ts";
import { createSandbox, isLeakyVariable, type Sandbox } from "../harness/sandbox.ts";

const packResultSchema = z.array(
	z.looseObject({
		filename: z.string(),
		files: z.array(z.looseObject({ path: z.string() })),
	}),
);
const settingsSchema = z.looseObject({ packages: z.array(z.string()).optional() });
const pendingSchema = z.looseObject({
	ok: z.literal(true),
	requests: z.array(z.looseObject({ id: z.string(), preview: z.string() })),
});

let scratch = "";
let tarball = "";
let packedFiles: string[] = [];
/** `<scratch>/pkgs/node_modules/pi-permission-hub`: the package as npm installed it from the tarball. */
let installed = "";
const sandboxes: Sandbox[] = [];

/** npm and the tools around it get the developer's environment (its npm cache), minus outer pi sessions. */
function toolEnvironment(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) if (!isLeakyVariable(name)) env[name] = value;
	env.PATH = `${path.dirname(node22Binary())}${path.delimiter}${process.env.PATH ?? ""}`;
	return env;
}

function npm(args: readonly string[], cwd: string) {
	return runCommand("npm", args, { cwd, env: toolEnvironment(), timeoutMs: 180_000 });
}

function pi(sb: Sandbox, args: readonly string[]) {
	return runCommand(node22Binary(), [PI_CLI, ...args], { cwd: sb.workDir, env: sb.env(), timeoutMs: 60_000 });
}

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

/** Adds the scripted model to the settings `pi install` wrote, keeping what it recorded. */
async function addFauxModel(sb: Sandbox): Promise<void> {
	const file = path.join(sb.agentDir, "settings.json");
	const settings: unknown = JSON.parse(readFileSync(file, "utf8"));
	await writeFile(
		file,
		`${JSON.stringify({ ...settingsSchema.parse(settings), extensions: [FAUX_MODEL_EXTENSION] }, null, "\t")}\n`,
	);
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
	for (const built of ["dist/extension/index.js", "dist/cli/main.js"]) {
		if (!existsSync(path.join(REPO_ROOT, built)))
			throw new Error(`${built} is missing: run \`npm run build\` first`);
	}
	scratch = await mkdtemp(path.join(os.tmpdir(), "pph-newcomer-"));
	// dist/ is already built (npm test builds first); --ignore-scripts keeps `prepare` from rebuilding it mid-run.
	const pack = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], REPO_ROOT);
	if (pack.code !== 0) throw new Error(describeResult("npm pack", pack));
	const [packed] = packResultSchema.parse(JSON.parse(pack.stdout));
	if (!packed) throw new Error(`npm pack reported nothing: ${pack.stdout}`);
	tarball = path.join(scratch, packed.filename);
	packedFiles = packed.files.map((f) => f.path);

	// The README's command. Offline first, from npm's cache; the registry only when the cache lacks a package.
	const prefix = path.join(scratch, "pkgs");
	await mkdir(prefix);
	const install = ["install", "--prefix", prefix, "--legacy-peer-deps", "--no-audit", "--no-fund"];
	let result = await npm([...install, "--offline", tarball], scratch);
	if (result.code !== 0) {
		process.stderr.write("newcomer test: npm's cache lacks a dependency; installing from the registry\n");
		result = await npm([...install, "--prefer-offline", tarball], scratch);
	}
	if (result.code !== 0) throw new Error(describeResult("npm install <tarball>", result));
	installed = path.join(prefix, "node_modules", "pi-permission-hub");
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
		const settings = settingsSchema.parse(
			JSON.parse(readFileSync(path.join(sb.agentDir, "settings.json"), "utf8")),
		);
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
	});
});
