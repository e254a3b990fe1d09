/**
 * The demo's throwaway world: its own HOME, pi agent dir (settings, the subagent definition, the gate's audit log)
 * and project folder, plus the scrubbed environment every pi of the demo runs with. Nothing outside this folder
 * is read or written, so the demo never touches the user's ~/.pi.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FILES, SUBAGENT_NAME } from "./scenario.ts";

const DEMO_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.dirname(DEMO_DIR);

const PI_PACKAGE = path.join(REPO_ROOT, "node_modules", "@earendil-works", "pi-coding-agent");
export const PI_CLI = path.join(PI_PACKAGE, "dist", "bundle", "cli.js");
/** pi's example subagent launcher: it starts every subagent as a separate `pi` process. */
const SUBAGENT_LAUNCHER = path.join(PI_PACKAGE, "examples", "extensions", "subagent", "index.ts");
const GATE_EXTENSION = path.join(REPO_ROOT, "dist", "extension", "index.js");
export const HUB_CLI = path.join(REPO_ROOT, "bin", "pi-permission-hub.mjs");
const DEMO_MODEL_EXTENSION = path.join(DEMO_DIR, "demo-model-extension.ts");
const AGENT_DEFINITION = path.join(DEMO_DIR, "agents", `${SUBAGENT_NAME}.md`);

/** Copied from the caller's environment; everything else is set explicitly. */
const INHERITED_VARIABLES: readonly string[] = ["PATH", "LANG", "LC_ALL", "TERM", "COLORTERM", "TMPDIR"];

export interface DemoWorld {
	readonly root: string;
	readonly home: string;
	/** `PI_CODING_AGENT_DIR` of every pi the demo starts. */
	readonly agentDir: string;
	/** The cwd of the root pi: the "project" the demo works on. */
	readonly projectDir: string;
	readonly auditLog: string;
	projectPath(relative: string): string;
	/** The environment of the demo's pi processes and CLI runs; `extra` is applied last. */
	env(extra?: Readonly<Record<string, string>>): Record<string, string>;
}

/** Files pi or the demo needs that `npm install` / `npm run build` provide; a missing one is named with its fix. */
export function missingPrerequisites(): string[] {
	const needed: readonly [string, string][] = [
		[PI_CLI, "run `npm install`"],
		[SUBAGENT_LAUNCHER, "run `npm install`"],
		[GATE_EXTENSION, "run `npm run build`"],
		[path.join(REPO_ROOT, "dist", "cli", "main.js"), "run `npm run build`"],
	];
	return needed.filter(([file]) => !existsSync(file)).map(([file, fix]) => `${file} is missing: ${fix}`);
}

/**
 * Creates the world under a new temp folder, or in `keepDir` (which must be absent or empty, so the demo never
 * mixes its files with someone else's).
 */
export async function createDemoWorld(keepDir?: string): Promise<DemoWorld> {
	const root = await realpath(await prepareRoot(keepDir));
	const home = path.join(root, "home");
	const agentDir = path.join(root, "agent");
	const projectDir = path.join(root, "project");
	await Promise.all(
		[home, path.join(agentDir, "agents"), path.join(projectDir, FILES.importantDir)].map((dir) =>
			mkdir(dir, { recursive: true }),
		),
	);
	await writeFile(
		path.join(agentDir, "settings.json"),
		`${JSON.stringify(
			{
				// Settings, not `-e`: the subagent's own pi process reads the same file, so it loads the gate and
				// the scripted model too, exactly as an installed package would be loaded.
				extensions: [DEMO_MODEL_EXTENSION, GATE_EXTENSION, SUBAGENT_LAUNCHER],
				quietStartup: true,
			},
			null,
			"\t",
		)}\n`,
	);
	await copyFile(AGENT_DEFINITION, path.join(agentDir, "agents", `${SUBAGENT_NAME}.md`));
	await writeFile(
		path.join(projectDir, FILES.readme),
		"# A demo project\n\nThe pi-permission-hub demo reads this file without asking: reading is the read tier.\n",
	);
	await writeFile(path.join(projectDir, FILES.oldLog), "stale output of an old build\n");
	await writeFile(
		path.join(projectDir, FILES.importantFile),
		"If you can read this after the demo, the gate kept `rm -rf important/` from running.\n",
	);

	const nodeDir = path.dirname(process.execPath);
	return {
		root,
		home,
		agentDir,
		projectDir,
		auditLog: path.join(agentDir, "pi-permission-hub", "audit.jsonl"),
		projectPath: (relative) => path.join(projectDir, relative),
		env(extra = {}) {
			const env: Record<string, string> = {};
			for (const name of INHERITED_VARIABLES) {
				const value = process.env[name];
				if (value !== undefined) env[name] = value;
			}
			return {
				...env,
				// The Node running the demo runs pi too (the subagent launcher starts it with process.execPath).
				PATH: env.PATH ? `${nodeDir}${path.delimiter}${env.PATH}` : nodeDir,
				HOME: home,
				PI_CODING_AGENT_DIR: agentDir,
				PI_OFFLINE: "1",
				PI_SKIP_VERSION_CHECK: "1",
				PI_TELEMETRY: "0",
				...extra,
			};
		},
	};
}

async function prepareRoot(keepDir: string | undefined): Promise<string> {
	if (keepDir === undefined) return mkdtemp(path.join(os.tmpdir(), "pph-demo-"));
	const dir = path.resolve(keepDir);
	if (existsSync(dir) && (await readdir(dir)).length > 0) {
		throw new Error(`--keep ${dir}: the folder is not empty; give a new or empty folder`);
	}
	await mkdir(dir, { recursive: true });
	return dir;
}
