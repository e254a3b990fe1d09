import { dirname, join } from "node:path";
import type { ChildGateQuery } from "./child-gate-query.ts";
import { type ChildGateVerdict, settingsFix } from "./child-gate-verdict.ts";
import { GATE_PACKAGE_NAME } from "./gate-package.ts";
import { readPiSettings } from "./pi-settings.ts";
import {
	resourceLoads,
	type SettingsResource,
	type SettingsScope,
	scopeResources,
} from "./settings-resources.ts";

/**
 * A child `pi` process loads what pi loads from settings — the agent dir's `packages`, `extensions` and
 * `extensions/` directory, and a trusted project's `.pi/` equivalents — and never the parent's `-e` flags.
 */
export function processChildrenVerdict(query: ChildGateQuery): ChildGateVerdict {
	const { agentDir, homeDir, files, gate } = query;
	const userFile = join(agentDir, "settings.json");
	const userSettings = readPiSettings(userFile, files);
	const fix = settingsFix(
		userFile,
		"packages",
		gate,
		` (what \`pi install\` writes), so every pi process started from this agent dir loads it`,
	);
	if (userSettings.state === "invalid") {
		return { gated: false, why: `${userFile} cannot be read as pi settings`, fix };
	}
	const user: SettingsScope = { settings: userSettings, baseDir: agentDir };
	let via = "";
	for (const cwd of query.call.cwds) {
		let project: SettingsScope | null = null;
		if (query.projectTrusted) {
			const projectDir = join(cwd, ".pi");
			const settings = readPiSettings(join(projectDir, "settings.json"), files);
			if (settings.state === "invalid") {
				return { gated: false, why: `${settings.file} cannot be read as pi settings`, fix };
			}
			project = { settings, baseDir: projectDir };
		}
		const loading = scopeResources(user, project, homeDir, files).find((resource) =>
			resourceLoads(resource, GATE_PACKAGE_NAME, files),
		);
		if (loading === undefined) {
			return {
				gated: false,
				why: `a subagent runs as a separate pi process, which does not inherit this session's -e flags and loads only the extensions in ${userFile}${project ? ` and ${project.settings.file}` : ""}; none of them is pi-permission-hub`,
				fix,
			};
		}
		via ||= describe(loading);
	}
	return { gated: true, via };
}

function describe(resource: SettingsResource): string {
	if (resource.origin === "extensions-dir") return `${join(dirname(resource.settingsFile), "extensions")}/`;
	return `\`${resource.origin}\` in ${resource.settingsFile}`;
}
