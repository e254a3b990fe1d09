/**
 * The package as users get it: `npm pack` of this checkout (dist/ already built), installed the two ways a user
 * installs it — with npm into a folder of their own (the README's tarball recipe), or by pi's own package
 * manager into the agent dir (what `pi install npm:…` does) — never the checkout itself.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { FAUX_MODEL_EXTENSION, node22Binary, PI_CLI, REPO_ROOT } from "./paths.ts";
import { type CommandResult, describeResult, runCommand } from "./run-command.ts";
import { isLeakyVariable, type Sandbox } from "./sandbox.ts";
import { findTmux } from "./tmux-driver.ts";

const packResultSchema = z.array(
	z.looseObject({
		filename: z.string(),
		files: z.array(z.looseObject({ path: z.string() })),
	}),
);
const settingsSchema = z.looseObject({ packages: z.array(z.string()).optional() });

export interface PackedPackage {
	readonly tarball: string;
	/** Paths inside the tarball, relative to the package root. */
	readonly files: readonly string[];
}

/** npm and the tools around it get the developer's environment (its npm cache), minus outer pi sessions. */
export function toolEnvironment(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) if (!isLeakyVariable(name)) env[name] = value;
	env.PATH = `${path.dirname(node22Binary())}${path.delimiter}${process.env.PATH ?? ""}`;
	return env;
}

function npm(args: readonly string[], cwd: string): Promise<CommandResult> {
	return runCommand("npm", args, { cwd, env: toolEnvironment(), timeoutMs: 180_000 });
}

/** `npm pack` of the built checkout into `destination`. */
export async function packRepository(destination: string): Promise<PackedPackage> {
	for (const built of ["dist/extension/index.js", "dist/cli/main.js"]) {
		if (!existsSync(path.join(REPO_ROOT, built)))
			throw new Error(`${built} is missing: run \`npm run build\` first`);
	}
	// dist/ is already built (npm test builds first); --ignore-scripts keeps `prepare` from rebuilding it mid-run.
	const pack = await npm(
		["pack", "--ignore-scripts", "--json", "--pack-destination", destination],
		REPO_ROOT,
	);
	if (pack.code !== 0) throw new Error(describeResult("npm pack", pack));
	const [packed] = packResultSchema.parse(JSON.parse(pack.stdout));
	if (!packed) throw new Error(`npm pack reported nothing: ${pack.stdout}`);
	return { tarball: path.join(destination, packed.filename), files: packed.files.map((f) => f.path) };
}

/**
 * The README's recipe: `npm install --prefix <prefix> --legacy-peer-deps <tarball>`. Offline first, from npm's
 * cache; the registry only when the cache lacks a package. Returns the installed package's directory.
 */
/**
 * For a test of the installed copy in pi's terminal UI: tmux must be there (a system package, installed by
 * `.ci/run`), and the repository is packed into a new scratch directory the test removes.
 */
export async function packForTerminalTest(
	prefix: string,
): Promise<{ scratch: string; packed: PackedPackage }> {
	if (findTmux() === null) {
		throw new Error(
			"tmux is not installed (Debian: apt-get install tmux): the installed-copy TUI test cannot run",
		);
	}
	const scratch = await mkdtemp(path.join(os.tmpdir(), prefix));
	return { scratch, packed: await packRepository(scratch) };
}

export async function installIntoFolder(tarball: string, prefix: string): Promise<string> {
	await mkdir(prefix, { recursive: true });
	const install = ["install", "--prefix", prefix, "--legacy-peer-deps", "--no-audit", "--no-fund"];
	let result = await npm([...install, "--offline", tarball], prefix);
	if (result.code !== 0) {
		process.stderr.write("packed-package: npm's cache lacks a dependency; installing from the registry\n");
		result = await npm([...install, "--prefer-offline", tarball], prefix);
	}
	if (result.code !== 0) throw new Error(describeResult("npm install <tarball>", result));
	return path.join(prefix, "node_modules", "pi-permission-hub");
}

/** pi's CLI against a sandbox. */
export function runPi(
	sb: Sandbox,
	args: readonly string[],
	timeoutMs = 60_000,
	env: Readonly<Record<string, string>> = {},
): Promise<CommandResult> {
	return runCommand(node22Binary(), [PI_CLI, ...args], { cwd: sb.workDir, env: sb.env(env), timeoutMs });
}

/**
 * What the npm that pi runs needs from the developer's setup: their npm cache (the dependencies are there after
 * `npm install`, so nothing is downloaded), and the CA bundle Node is told to trust, for when something is not.
 */
function npmForPi(): Record<string, string> {
	const env: Record<string, string> = {
		npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), ".npm"),
		npm_config_prefer_offline: "true",
	};
	const ca = process.env.NODE_EXTRA_CA_CERTS;
	if (ca) env.NODE_EXTRA_CA_CERTS = ca;
	return env;
}

export async function readSettings(sb: Sandbox): Promise<z.infer<typeof settingsSchema>> {
	return settingsSchema.parse(JSON.parse(await readFile(path.join(sb.agentDir, "settings.json"), "utf8")));
}

/** Adds the scripted model to the settings `pi install` wrote, keeping what it recorded. */
export async function addFauxModel(sb: Sandbox): Promise<void> {
	const settings = await readSettings(sb);
	await writeFile(
		path.join(sb.agentDir, "settings.json"),
		`${JSON.stringify({ ...settings, extensions: [FAUX_MODEL_EXTENSION] }, null, "\t")}\n`,
	);
}

/** `pi install npm:<spec>`: pi's package manager runs npm into `<agent dir>/npm`. */
export function piInstallNpm(sb: Sandbox, spec: string): Promise<CommandResult> {
	return runPi(sb, ["install", `npm:${spec}`], 180_000, npmForPi());
}

/**
 * What a user of the published package gets: pi's own package manager installs it into `<agent dir>/npm` (npm
 * with `--legacy-peer-deps`, so none of pi's packages come along) and the settings list `npm:pi-permission-hub`.
 * The package is not on a registry, so pi installs the tarball, and the settings entry is then set to the name
 * `pi install npm:pi-permission-hub` writes; with `PI_OFFLINE` pi loads the installed copy without asking a
 * registry. Returns the installed package's directory.
 */
export async function installAsPiPackage(sb: Sandbox, tarball: string): Promise<string> {
	const install = await piInstallNpm(sb, tarball);
	if (install.code !== 0) throw new Error(describeResult("pi install npm:<tarball>", install));
	const installed = path.join(sb.agentDir, "npm", "node_modules", "pi-permission-hub");
	if (!existsSync(path.join(installed, "package.json")))
		throw new Error(`pi install put no package at ${installed}`);
	const settings = await readSettings(sb);
	await writeFile(
		path.join(sb.agentDir, "settings.json"),
		`${JSON.stringify({ ...settings, packages: ["npm:pi-permission-hub"] }, null, "\t")}\n`,
	);
	return installed;
}
