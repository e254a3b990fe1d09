import { resolve } from "node:path";
import { buildEffectivePolicy } from "./build-effective-policy.ts";
import { projectConfigPath, userConfigPath } from "./config-paths.ts";
import type { EffectivePolicy } from "./effective-policy.ts";
import { type ReadText, readConfigFile, readTextFromDisk } from "./read-config-file.ts";

export interface LoadPolicyOptions {
	readonly agentDir: string;
	readonly cwd: string;
	readonly homeDir: string;
	readonly projectTrusted: boolean;
	readonly readText?: ReadText;
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
	});
}
