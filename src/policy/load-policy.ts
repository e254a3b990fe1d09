/**
 * Loading the policy from the config files. A session keeps a store: the policy for one session, re-read only
 * when a config file changed. Each call `stat`s the files in force (cheap) and re-parses a file only when its
 * identity (device, inode, size, change and modification times) differs from the last read; the merged policy
 * is rebuilt only when a file or the project's trust changed, or the bash grammar arrived to test the rules'
 * examples. `current()` never throws: anything unexpected
 * yields the fail-closed policy. The CLI and tests load once, uncached (`loadPolicy`).
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { BashParser } from "../classify/bash/bash-parser.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";
import { buildEffectivePolicy, failClosedPolicy } from "./build-effective-policy.ts";
import { configFileError } from "./config-error.ts";
import {
	brokenConfigPath,
	type ConfigFileState,
	type ReadText,
	readConfigFile,
	readTextFromDisk,
} from "./config-file.ts";
import { managedConfigPath, projectConfigPath, userConfigPath } from "./config-paths.ts";
import type { ConfigScope } from "./config-schema.ts";
import type { EffectivePolicy, PatternContext } from "./effective-policy.ts";

export interface LoadPolicyOptions {
	readonly agentDir: string;
	readonly cwd: string;
	readonly homeDir: string;
	readonly projectTrusted: boolean;
	readonly readText?: ReadText;
	/** The bash grammar: with it the rules' examples are tested (rule-examples.ts), without it they are not. */
	readonly bash?: BashParser;
	/** The managed layer's file (adr/0024); by default where this process's environment says. */
	readonly managedFile?: string;
}

/** One uncached load (for the CLI and tests); sessions use `createPolicyStore`, which re-reads only on change. */
export function loadPolicy(options: LoadPolicyOptions): EffectivePolicy {
	const readText = options.readText ?? readTextFromDisk;
	const projectFile = projectConfigPath(options.cwd);
	return buildEffectivePolicy({
		context: { cwd: resolve(options.cwd), homeDir: resolve(options.homeDir) },
		user: readConfigFile(userConfigPath(options.agentDir), "user", readText),
		project: options.projectTrusted
			? readConfigFile(projectFile, "project", readText)
			: { status: "not-trusted", file: projectFile, scope: "project" },
		managed: readConfigFile(options.managedFile ?? managedConfigPath(process.env), "managed", readText),
		...(options.bash === undefined ? {} : { examples: { bash: options.bash, agentDir: options.agentDir } }),
	});
}

export interface PolicyStoreOptions {
	/** pi's agent directory (see `resolveAgentDir`). */
	readonly agentDir: string;
	/** The session's working directory: where the project file lives and what relative patterns are relative to. */
	readonly cwd: string;
	readonly homeDir: string;
	/** pi's verdict (`ctx.isProjectTrusted()`); asked on every `current()` so a change of trust takes effect. */
	readonly isProjectTrusted: () => boolean;
	/** The managed layer's file (adr/0024); by default where this process's environment says. */
	readonly managedFile?: string;
	readonly readText?: ReadText;
	/**
	 * The bash grammar once it has loaded, else null: from then on the rules' examples are tested. A session
	 * decides no call before its grammar has loaded, so every decision sees a policy whose examples were tested.
	 */
	readonly bash?: () => BashParser | null;
}

export interface PolicyStore {
	readonly userFile: string;
	readonly projectFile: string;
	current(): EffectivePolicy;
}

interface CachedFile {
	readonly identity: string;
	readonly state: ConfigFileState;
}

export function createPolicyStore(options: PolicyStoreOptions): PolicyStore {
	const context: PatternContext = { cwd: resolve(options.cwd), homeDir: resolve(options.homeDir) };
	const userFile = userConfigPath(resolve(options.agentDir));
	const managedFile = options.managedFile ?? managedConfigPath(process.env);
	const projectFile = projectConfigPath(context.cwd);
	const readText = options.readText ?? readTextFromDisk;
	const files = new Map<ConfigScope, CachedFile>();
	let last: { key: string; policy: EffectivePolicy } | null = null;

	const fileState = (file: string, scope: ConfigScope): CachedFile => {
		const identity = fileIdentity(file);
		const cached = files.get(scope);
		if (cached && cached.identity === identity) return cached;
		const state: ConfigFileState =
			identity === MISSING ? { status: "missing", file, scope } : readConfigFile(file, scope, readText);
		const entry = { identity, state };
		files.set(scope, entry);
		return entry;
	};

	/** Whether pi trusts the project; not knowing is a config error (fail closed), never "untrusted". */
	const projectState = (): CachedFile => {
		try {
			if (options.isProjectTrusted()) return fileState(projectFile, "project");
			return {
				identity: "not-trusted",
				state: { status: "not-trusted", file: projectFile, scope: "project" },
			};
		} catch (error) {
			const problem = `could not tell whether pi trusts this project: ${errorMessage(error)}`;
			const unknown = configFileError(projectFile, "project", [{ jsonPath: "", line: null, problem }]);
			return {
				identity: `trust-unknown:${problem}`,
				state: { status: "invalid", file: projectFile, scope: "project", error: unknown },
			};
		}
	};

	return {
		userFile,
		projectFile,
		current(): EffectivePolicy {
			try {
				const user = fileState(userFile, "user");
				const managed = fileState(managedFile, "managed");
				const project = projectState();
				const bash = options.bash?.() ?? null;
				const key = `${managed.identity}|${user.identity}|${project.identity}|${bash === null ? "examples untested" : "examples tested"}`;
				if (last?.key === key) return last.policy;
				const policy = buildEffectivePolicy({
					context,
					user: user.state,
					managed: managed.state,
					project: project.state,
					...(bash === null ? {} : { examples: { bash, agentDir: resolve(options.agentDir) } }),
				});
				last = { key, policy };
				return policy;
			} catch (error) {
				const problem = `the policy could not be loaded: ${errorMessage(error)}`;
				return failClosedPolicy(
					context,
					[
						{ scope: "managed", file: managedFile, state: "invalid" },
						{ scope: "user", file: userFile, state: "invalid" },
						{ scope: "project", file: projectFile, state: "invalid" },
					],
					[configFileError(userFile, "user", [{ jsonPath: "", line: null, problem }])],
					[],
				);
			}
		},
	};
}

const MISSING = "missing";

/** Changes whenever the file is replaced, resized or written; `missing` when there is nothing to read. */
function fileIdentity(file: string): string {
	try {
		const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
		if (stat !== undefined) return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
	} catch (error) {
		if (fsErrorCode(error) !== "ENOTDIR") return "unreadable";
	}
	// Not there: truly absent, or a broken path the loader reads and reports (its text changes with the problem).
	return brokenConfigPath(file) ?? MISSING;
}
