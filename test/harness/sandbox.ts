/**
 * A throw-away world for one real pi run: its own HOME, agent dir, working dir and a scrubbed environment,
 * so nothing from the developer's ~/.pi or from an outer pi / CI session can change what the test sees.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { node22Binary } from "./paths.ts";

/** Only these are copied from the outer environment; everything else is set explicitly. */
const INHERITED_VARIABLES: readonly string[] = ["PATH", "LANG", "TERM", "TMPDIR"];

/** CI markers that would make a session look like a `ci` origin. */
const CI_VARIABLES: ReadonlySet<string> = new Set([
	"CI",
	"GITHUB_ACTIONS",
	"GITLAB_CI",
	"BUILDKITE",
	"CIRCLECI",
	"JENKINS_URL",
	"TRAVIS",
	"TF_BUILD",
	"BITBUCKET_BUILD_NUMBER",
	"TEAMCITY_VERSION",
	"DRONE",
	"CODEBUILD_BUILD_ID",
]);

/** Variables that would leak an outer pi session, a subagent parent or a CI provider into the run. */
export function isLeakyVariable(name: string): boolean {
	return name.startsWith("PI_") || name.includes("SUBAGENT") || CI_VARIABLES.has(name);
}

/** The minimal, scrubbed part of `outer` a sandboxed pi inherits. */
export function inheritedEnvironment(outer: NodeJS.ProcessEnv): Record<string, string> {
	const env: Record<string, string> = {};
	for (const name of INHERITED_VARIABLES) {
		const value = outer[name];
		if (value !== undefined && !isLeakyVariable(name)) env[name] = value;
	}
	return env;
}

export interface AgentSettings {
	readonly extensions?: readonly string[];
	readonly packages?: readonly unknown[];
	readonly [key: string]: unknown;
}

export interface Sandbox {
	readonly root: string;
	readonly home: string;
	/** `PI_CODING_AGENT_DIR`: settings.json, auth.json, extensions/, sessions/. */
	readonly agentDir: string;
	/** The cwd of every pi run. */
	readonly workDir: string;
	/** Where `writeScript` puts the faux model script; named by `PPH_FAUX_SCRIPT` in `env()`. */
	readonly fauxScriptPath: string;
	/** The full environment for a pi process; `extra` is applied last and may set anything. */
	env(extra?: Readonly<Record<string, string>>): Record<string, string>;
	workPath(relativePath: string): string;
	writeWorkFile(relativePath: string, content: string): Promise<string>;
	writeAgentFile(relativePath: string, content: string): Promise<string>;
	writeSettings(settings: AgentSettings): Promise<void>;
	/** Removes the whole root; safe to call more than once. */
	cleanup(): Promise<void>;
}

function inside(base: string, relativePath: string): string {
	const target = path.resolve(base, relativePath);
	if (target !== base && !target.startsWith(base + path.sep)) {
		throw new Error(`sandbox path "${relativePath}" escapes ${base}`);
	}
	return target;
}

async function writeInside(base: string, relativePath: string, content: string): Promise<string> {
	const target = inside(base, relativePath);
	await mkdir(path.dirname(target), { recursive: true });
	await writeFile(target, content);
	return target;
}

export async function createSandbox(): Promise<Sandbox> {
	const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "pph-e2e-")));
	const home = path.join(root, "home");
	const agentDir = path.join(root, "agent");
	const workDir = path.join(root, "work");
	// Its own TMPDIR: what pi, pi-subagents or the CLI put there goes with the sandbox, and a checkout of this
	// repository that lives under the machine's /tmp (as CI's clean clone may) is not "temporary" to the CLI.
	// jiti's transpile cache is linked in from the outer TMPDIR, so only the first pi-subagents run transpiles it.
	const tmpDir = path.join(root, "tmp");
	const sharedJiti = path.join(os.tmpdir(), "jiti");
	await Promise.all(
		[home, agentDir, workDir, tmpDir, sharedJiti].map((dir) => mkdir(dir, { recursive: true })),
	);
	await symlink(sharedJiti, path.join(tmpDir, "jiti"));
	const fauxScriptPath = path.join(root, "faux-script.json");

	return {
		root,
		home,
		agentDir,
		workDir,
		fauxScriptPath,
		env(extra = {}) {
			const base = inheritedEnvironment(process.env);
			const nodeDir = path.dirname(node22Binary());
			return {
				...base,
				PATH: base.PATH ? `${nodeDir}${path.delimiter}${base.PATH}` : nodeDir,
				HOME: home,
				TMPDIR: tmpDir,
				PI_CODING_AGENT_DIR: agentDir,
				PI_OFFLINE: "1",
				PI_SKIP_VERSION_CHECK: "1",
				PI_TELEMETRY: "0",
				PPH_FAUX_SCRIPT: fauxScriptPath,
				...extra,
			};
		},
		workPath: (relativePath) => inside(workDir, relativePath),
		writeWorkFile: (relativePath, content) => writeInside(workDir, relativePath, content),
		writeAgentFile: (relativePath, content) => writeInside(agentDir, relativePath, content),
		async writeSettings(settings) {
			await writeInside(agentDir, "settings.json", `${JSON.stringify(settings, null, "\t")}\n`);
		},
		async cleanup() {
			await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
		},
	};
}
