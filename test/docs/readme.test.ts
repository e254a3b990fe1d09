/**
 * README.md as a newcomer follows it. It stays short; its policy does what its bullets say; and every shell block
 * is run here as written — in a throwaway HOME, with `pi` being the real pi CLI and the scripted model as the
 * default model — except the few marked as run elsewhere (`npm install` / `npm test` by .ci/run, the demo by its
 * own tests), which this test holds to the place that runs them.
 */
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { loadBashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { userConfigPath } from "../../src/policy/config-paths.ts";
import { decide } from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import { loadPolicy } from "../../src/policy/load-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { FAUX_MODEL_EXTENSION, node22Binary, PI_CLI, REPO_ROOT } from "../harness/paths.ts";
import { type CommandResult, describeResult, runCommand } from "../harness/run-command.ts";
import { createSandbox, type Sandbox } from "../harness/sandbox.ts";
import { type CodeBlock, codeBlocks, configBlocks } from "./markdown-blocks.ts";

const README = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
const version = z
	.object({ version: z.string() })
	.parse(JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"))).version;

/** Where the README says to put things that are yours: stands for the checkout. */
const CHECKOUT = "/path/to/pi-permission-hub";

const shellBlocks = codeBlocks(README).filter((block) => block.lang === "bash");
const runBlocks = shellBlocks.filter((block) => block.marker === "run");

describe("README.md", () => {
	it("is short: at most 300 lines", () => {
		expect(README.split("\n").length).toBeLessThanOrEqual(300);
	});

	it("marks every shell block as run by this test or by a named place", () => {
		expect(shellBlocks.length).toBeGreaterThan(5);
		for (const block of shellBlocks) {
			expect(block.marker, `README.md line ${block.line}`).toMatch(/^(run|covered by .+)$/);
		}
	});

	it("holds the blocks run elsewhere to the places that run them", () => {
		const covered = shellBlocks.filter((block) => block.marker?.startsWith("covered by "));
		const ciRun = readFileSync(path.join(REPO_ROOT, ".ci", "run"), "utf8").split("\n");
		const scripts = z
			.object({ scripts: z.record(z.string(), z.string()) })
			.parse(JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"))).scripts;
		for (const block of covered) {
			const places = (block.marker ?? "").replace(/^covered by /, "").split(" and ");
			for (const place of places) expect(existsSync(path.join(REPO_ROOT, place)), place).toBe(true);
			for (const command of commandsOf(block)) {
				if (command === "npm install" || command === "npm test") {
					expect(places, command).toContain(".ci/run");
					expect(
						ciRun.some((line) => line.startsWith(command)),
						`.ci/run runs ${command}`,
					).toBe(true);
				} else if (command === "npm run demo") {
					// The demo's tests run what the script runs after building: node demo/run.ts.
					expect(scripts.demo).toBe("npm run build && node demo/run.ts");
					const test = places.find((place) => place.startsWith("test/demo/"));
					expect(test, command).toBeDefined();
					expect(readFileSync(path.join(REPO_ROOT, test ?? ""), "utf8")).toContain("DEMO_SCRIPT");
				} else {
					expect.fail(`README.md line ${block.line}: nothing holds \`${command}\` to a test`);
				}
			}
		}
	});
});

function commandsOf(block: CodeBlock): string[] {
	return block.text
		.split("\n")
		.map((line) => line.replace(/\s+#.*$/, "").trim())
		.filter((line) => line !== "");
}

// ---------------------------------------------------------------------------------------------------------------
// The first policy

describe("the README's first policy", () => {
	const [example] = configBlocks(README);
	let bash: BashParser;
	let policy: EffectivePolicy;
	let home = "";
	let cwd = "";
	let sb: Sandbox;

	beforeAll(async () => {
		if (!example) throw new Error("README.md shows no policy");
		sb = await createSandbox();
		home = sb.home;
		cwd = sb.workDir;
		const agentDir = path.join(home, ".pi", "agent");
		await mkdir(path.dirname(userConfigPath(agentDir)), { recursive: true });
		await writeFile(userConfigPath(agentDir), example.text);
		bash = await loadBashParser();
		policy = loadPolicy({ agentDir, cwd, homeDir: home, projectTrusted: false, bash });
	});
	afterAll(() => sb?.cleanup());

	function modeOf(tool: string, input: Record<string, unknown>): string {
		const action = classifyAction(
			{ tool, input, cwd },
			{
				bash,
				extraCommandTiers: [],
				toolTiers: {},
				toolAnnotations: () => undefined,
				homeDir: home,
				agentDir: path.join(home, ".pi", "agent"),
			},
		);
		return decide(action, policy, { origin: { kind: "human" }, grants: [], parkedApproval: null }).mode;
	}
	const shell = (command: string): string => modeOf("bash", { command });

	it("is the only one, and valid with no warnings", () => {
		expect(configBlocks(README)).toHaveLength(1);
		expect(policy.configErrors).toEqual([]);
		expect(policy.warnings).toEqual([]);
	});

	it("does what the README's bullets say", () => {
		expect(shell("git push --force origin main")).toBe("deny");
		expect(modeOf("read", { path: path.join(home, ".ssh", "id_ed25519") })).toBe("deny");
		expect(modeOf("write", { path: "config/.env", content: "x" })).toBe("deny");
		expect(shell("echo KEY=1 > .env")).toBe("deny");
		expect(shell("git push origin feature")).toBe("ask");
		expect(shell("npm test")).toBe("auto");
		expect(modeOf("write", { path: "src/a.ts", content: "x" })).toBe("auto");
		expect(modeOf("edit", { path: "src/a.ts", edits: [{ oldText: "x", newText: "y" }] })).toBe("auto");
		for (const command of [
			"touch src/a.ts",
			"echo hi > src/b.ts",
			"mkdir -p src/lib",
			"cp README.md src/c.md",
			"mv src/a.ts src/d.ts",
			"tee src/e.ts < README.md",
			"sed -i 's/a/b/' src/a.ts",
		]) {
			expect(shell(command), command).toBe("auto");
		}
		expect(shell("node gen.js > src/c.ts")).toBe("ask");
		expect(shell("ls -la")).toBe("auto");
		expect(shell("rm -rf build")).toBe("ask");
		expect(shell("sudo ls")).toBe("ask");
	});
});

// ---------------------------------------------------------------------------------------------------------------
// The shell blocks, run as written

/** How pi exits when it starts without a model (see the retry in the tarball walk-through). */
const NO_MODELS = "No models available.";

/** A HOME of its own, pi and its scripted model set up the way a user's would be; `pi` on PATH is real pi. */
interface NewcomerWorld {
	readonly sb: Sandbox;
	readonly agentDir: string;
	readonly project: string;
	run(block: CodeBlock, extraPath?: string): Promise<CommandResult>;
}

async function newcomerWorld(): Promise<NewcomerWorld> {
	const sb = await createSandbox();
	const agentDir = path.join(sb.home, ".pi", "agent");
	const project = path.join(sb.home, "project");
	const bin = path.join(sb.root, "bin");
	await Promise.all([agentDir, project, bin].map((dir) => mkdir(dir, { recursive: true })));
	// pi as a user has it on PATH; its default model is the scripted one (no network, no key).
	await writeFile(path.join(bin, "pi"), `#!/bin/sh\nexec '${node22Binary()}' '${PI_CLI}' "$@"\n`);
	await chmod(path.join(bin, "pi"), 0o755);
	await writeFile(
		path.join(agentDir, "settings.json"),
		JSON.stringify({ extensions: [FAUX_MODEL_EXTENSION], defaultProvider: "faux", defaultModel: "faux-1" }),
	);
	await writeFile(path.join(project, "old-build.log"), "stale\n");
	const base = sb.env();
	// The README's paths: ~/.pi/agent, not a sandbox variable. npm gets the developer's cache (the dependencies
	// are there after `npm install`) and CA bundle, and runs no install scripts (pack must not rebuild dist/
	// while other tests read it).
	const { PI_CODING_AGENT_DIR: _agentDir, ...env } = base;
	const npmEnv: Record<string, string> = {
		npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), ".npm"),
		npm_config_prefer_offline: "true",
		npm_config_ignore_scripts: "true",
		npm_config_audit: "false",
		npm_config_fund: "false",
		...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
	};
	return {
		sb,
		agentDir,
		project,
		run(block, extraPath = "") {
			const script = block.text.replaceAll(CHECKOUT, REPO_ROOT);
			return runCommand("bash", ["-e", "-c", script], {
				cwd: project,
				env: { ...env, ...npmEnv, PATH: `${extraPath}${bin}${path.delimiter}${env.PATH ?? ""}` },
				timeoutMs: 180_000,
			});
		},
	};
}

/** The run block whose text contains `text`. */
function runBlock(text: string): CodeBlock {
	const block = runBlocks.find((b) => b.text.includes(text));
	if (!block) throw new Error(`README.md has no run block with ${JSON.stringify(text)}`);
	return block;
}

const worlds: Sandbox[] = [];
afterAll(async () => {
	await Promise.all(worlds.splice(0).map((sb) => sb.cleanup()));
});

describe("the README's shell blocks, run as written", () => {
	it("every run block is one of those below (a new one needs a test here)", () => {
		expect(runBlocks.map((b) => commandsOf(b)[0])).toEqual([
			`pi install ${CHECKOUT}`,
			"mkdir -p ~/pi-packages",
			"pi-permission-hub validate",
			'pi -p "remove the old build log"',
			"pi-permission-hub doctor --fix",
			'pi-permission-hub explain "rm -f old-build.log"',
			"pi-permission-hub check -- 'git log --oneline -5 && sed -i s/old/new/ notes.txt'",
		]);
	});

	it("from a checkout: pi install puts the checkout in pi's settings", async () => {
		const world = await newcomerWorld();
		worlds.push(world.sb);
		const install = await world.run(runBlock("pi install /path"));
		expect(install.code, describeResult("pi install", install)).toBe(0);
		const settings = z
			.looseObject({ packages: z.array(z.string()) })
			.parse(JSON.parse(readFileSync(path.join(world.agentDir, "settings.json"), "utf8")));
		expect(settings.packages.map((p) => path.resolve(world.agentDir, p))).toEqual([REPO_ROOT]);
	});

	it("from a tarball, then the first policy, a print run, its parked ask approved, the doctor and the audit", async () => {
		const world = await newcomerWorld();
		worlds.push(world.sb);
		const step = async (block: CodeBlock, what: string): Promise<CommandResult> => {
			const run = () =>
				world.run(block, `${path.join(world.sb.home, "pi-packages", "node_modules", ".bin")}:`);
			let result = await run();
			// pi 1.x, given its model by an extension in settings.json, now and then starts without it and exits
			// at once (about 1 start in 12 here, the gate not loaded at all). Nothing has run then; start again.
			for (let retry = 0; retry < 2 && result.code !== 0 && result.stderr.includes(NO_MODELS); retry++) {
				result = await run();
			}
			expect(result.code, describeResult(what, result)).toBe(0);
			return result;
		};

		const install = runBlock("npm pack");
		expect(install.text).toContain(`pi-permission-hub-${version}.tgz`);
		expect(install.text).toContain('export PATH="$HOME/pi-packages/node_modules/.bin:$PATH"');
		await step(install, "the tarball install");
		const installed = path.join(world.sb.home, "pi-packages", "node_modules", "pi-permission-hub");
		expect(existsSync(path.join(installed, "dist", "extension", "index.js"))).toBe(true);

		// Written as a person would, with their editor.
		const [policy] = configBlocks(README);
		await mkdir(path.dirname(userConfigPath(world.agentDir)), { recursive: true });
		await writeFile(userConfigPath(world.agentDir), policy?.text ?? "");
		const validate = await step(runBlock("pi-permission-hub validate"), "validate");
		expect(validate.stdout).toContain("is a valid user config");
		// The policy's "$schema" resolves: the gate keeps the schema next to the file.
		expect(existsSync(path.join(path.dirname(userConfigPath(world.agentDir)), "config.schema.json"))).toBe(
			true,
		);

		await writeScript(world.sb, {
			conversations: [
				{ turns: [{ calls: [{ tool: "bash", input: { command: "rm -f old-build.log" } }] }, { echo: true }] },
			],
		});
		const print = await step(runBlock("pi -p"), "the print run, pending and approve --all");
		expect(print.stderr).toMatch(
			/pi-permission-hub: blocked 1 call in this run: 1 parked for approval \(pi-permission-hub pending --session \S+\)/,
		);
		expect(print.stdout).toContain("1 parked request (1 waiting for an answer)");
		expect(print.stdout).toContain("preview   rm -f old-build.log");
		expect(print.stdout).toContain("pi-permission-hub approve --all: approved 1 parked request");
		expect(existsSync(path.join(world.project, "old-build.log"))).toBe(true);

		const doctor = await step(runBlock("doctor --fix"), "doctor --fix");
		expect(doctor.stdout).toContain("gate-installed");

		const audit = await step(runBlock("pi-permission-hub explain"), "explain and sessions");
		expect(audit.stdout).toContain("rm -f old-build.log");
		expect(audit.stdout).toContain("decided by: unavailable(nobody answered; parked as request");
		expect(audit.stdout).toContain("decided by: user(cli, allow once)");
		expect(audit.stdout).toMatch(/pi-permission-hub sessions: \d+ decisions? in \d+ origin groups?/);

		const check = await step(runBlock("pi-permission-hub check"), "check");
		expect(check.stdout).toContain("asks first (ask), tier write");
		expect(check.stdout).toContain("not read: sed -i s/old/new/ notes.txt");
		expect(check.stdout).not.toContain("not read: git log");
	}, 300_000);
});
