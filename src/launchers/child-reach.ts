/**
 * What a delegation's child runs besides the gate, and where (adr/0011): the code it loads that the user did not
 * configure outside the project — an extension the project or an agent definition in it names, or one that lies
 * in the project — the agent definitions it reads from project files, and the directories it runs in outside the
 * root's project. The model can write any project file, so whatever comes from there is its choice, not the
 * user's; a child that loads such code runs it in a pi process, unsandboxed and unchecked, whatever gate it
 * carries. Read only through the FileView, never throwing for anything on disk.
 */
import { join, relative, resolve, sep } from "node:path";
import {
	builtinAgentDirectory,
	projectAgentDirectories,
	projectRootCandidates,
	projectSettingsFile,
	scanAgentDirectory,
	userAgentDirectories,
} from "./agent-definition.ts";
import { childExtensionEntry, childExtensions } from "./child-extensions.ts";
import { type ChildGateQuery, launches, overrideVariants } from "./child-gate.ts";
import type { FileView } from "./file-view.ts";
import { launcherDescription } from "./known-launcher.ts";
import { loadsOwnGate } from "./package-manifest.ts";
import { agentOverridesOf, keysOf, readPiSettings, type UsableSettings } from "./pi-settings.ts";
import { resourceLoadsOwnGate, scopeResources } from "./settings-resources.ts";
import { isUnknownRun } from "./tintinweb-agent.ts";
import { tintinwebExtensionPath } from "./tintinweb-extension-names.ts";

/** One thing the child loads that the user did not configure outside the project. */
export interface ChildLoad {
	readonly kind: "extension" | "agent definition";
	/** The entry as written; for an agent definition, the agent's name. */
	readonly written: string;
	/** The file or package it loads; for an agent definition, its file. */
	readonly at: string;
	/** The file that names it. */
	readonly namedIn: string;
}

export interface ChildReach {
	readonly loads: readonly ChildLoad[];
	/** The directories the child runs in that lie outside the root's project. */
	readonly outside: readonly string[];
}

/** The child's reach; `projectDir`: the root's project, the one place the model's writes are expected. */
export function childReach(query: ChildGateQuery, projectDir: string): ChildReach {
	const inProject = projectTest(projectDir, query.files);
	const outside = query.call.launches ? query.call.cwds.filter((cwd) => !inProject(cwd)) : [];
	if (!query.call.launches) return { loads: [], outside };
	const loads = loadsOf(query, inProject);
	const seen = new Set<string>();
	const unique = loads.filter((load) => {
		const key = `${load.kind}\0${load.at}\0${load.namedIn}`;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
	return { loads: unique, outside };
}

/** Whether nothing of the child's reach goes beyond the gate, the user's own configuration, and the project. */
export function isContained(reach: ChildReach): boolean {
	return reach.loads.length === 0 && reach.outside.length === 0;
}

type InProject = (path: string) => boolean;

function loadsOf(query: ChildGateQuery, inProject: InProject): ChildLoad[] {
	switch (launcherDescription(query.launcher.kind).children) {
		case "listed-in-process":
			return piSubagentsLoads(query, inProject);
		case "agent-dir-in-process":
			return tintinwebLoads(query, inProject);
		case "process":
			return processLoads(query, inProject);
		case "unknown":
			return [];
	}
}

/**
 * Inside the project by its path as written or by its real path (a link out of the project, or into it, counts
 * both ways: the strict direction). The project's own directory counts as inside.
 */
function projectTest(projectDir: string, files: FileView): InProject {
	const roots = [resolve(projectDir), files.realPath(projectDir)].filter(
		(dir): dir is string => dir !== null,
	);
	const within = (path: string): boolean =>
		roots.some((root) => {
			const rel = relative(root, path);
			return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
		});
	return (path) => {
		const absolute = resolve(path);
		const real = files.realPath(absolute);
		return within(absolute) || (real !== null && within(real));
	};
}

/** pi-subagents: each definition the call may start, and each entry its child loads (child-gate.ts's reading). */
function piSubagentsLoads(query: ChildGateQuery, inProject: InProject): ChildLoad[] {
	const { agentDir, homeDir, files, gate } = query;
	const user = readPiSettings(join(agentDir, "settings.json"), files);
	// Unreadable settings: the children count as ungated, which asks a human already.
	if (user.state === "invalid") return [];
	const { packageRoot } = query.launcher;
	const userDirs = [
		...(packageRoot ? [builtinAgentDirectory(packageRoot)] : []),
		...userAgentDirectories(agentDir, homeDir, query.env),
	];
	const loads: ChildLoad[] = [];
	for (const cwd of query.call.cwds) {
		const roots = projectRootCandidates(cwd, files);
		for (const root of roots.length > 0 ? roots : [null]) {
			const read = root ? readPiSettings(projectSettingsFile(root), files) : null;
			if (read?.state === "invalid") return loads;
			const project: UsableSettings | null = read;
			const dirs = [...userDirs, ...(root ? projectAgentDirectories(root) : [])];
			const definitions = dirs.flatMap((dir) => scanAgentDirectory(dir, files).definitions);
			const projectDefaults = project ? keysOf(project).subagents?.defaultExtensions : undefined;
			const defaults =
				project && projectDefaults !== undefined
					? { file: project.file, list: projectDefaults }
					: { file: user.file, list: keysOf(user).subagents?.defaultExtensions };
			for (const { agent, definition } of launches(definitions, query.call.agents)) {
				const fromProject = definition !== null && (inProject(definition.file) || !userFile(definition.file));
				if (definition !== null && fromProject) {
					loads.push({
						kind: "agent definition",
						written: agent,
						at: definition.file,
						namedIn: definition.file,
					});
				}
				const names = definition?.names ?? [agent];
				const projectOverride =
					project !== null && agentOverridesOf(keysOf(project)).some((o) => names.includes(o.agent));
				for (const variant of overrideVariants(names, user, project)) {
					const child = childExtensions(definition, variant.override, defaults.list);
					for (const written of child.loaded) {
						const entry = childExtensionEntry(written, cwd, homeDir, gate, files);
						if (entry.kind === "path" && entry.loadsGate) continue;
						const listed = [
							...(definition?.extensions ?? []),
							...(definition?.subagentOnlyExtensions ?? []),
							...(definition?.tools ?? []),
						].includes(written);
						const namedIn =
							definition !== null && listed
								? definition.file
								: projectOverride && project
									? project.file
									: (variant.where?.file ?? defaults.file);
						const at = entry.kind === "path" ? entry.path : written;
						const projectNamed = inProject(namedIn) || namedIn === project?.file || (listed && fromProject);
						if (projectNamed || (entry.kind === "path" && inProject(entry.path))) {
							loads.push({ kind: "extension", written, at, namedIn });
						}
					}
				}
			}
		}
	}
	return loads;

	/** An agent file in one of the user's agent directories (or the launcher's own), not in a project. */
	function userFile(file: string): boolean {
		return userDirs.some((dir) => {
			const rel = relative(resolve(dir), resolve(file));
			return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep);
		});
	}
}

/**
 * @tintinweb/pi-subagents: the agent file the call resolves to when it is the project's (`.agents/agents/`,
 * `.pi/agents/`), the paths its `extensions:` loads afresh, and what the project's `.pi/` makes its fresh loader
 * discover (read whether or not pi trusts the project). A child with no extension at all loads neither.
 */
function tintinwebLoads(query: ChildGateQuery, inProject: InProject): ChildLoad[] {
	const { agentDir, homeDir, files, gate } = query;
	const loads: ChildLoad[] = [];
	const runs = query.call.tintinwebRuns.length > 0 ? query.call.tintinwebRuns : [null];
	const userAgents = join(agentDir, "agents");
	let loadsExtensions = false;
	for (const cwd of query.call.cwds) {
		for (const run of runs) {
			if (isUnknownRun(run)) continue;
			const isolated = run?.isolated ?? query.call.withoutExtensions;
			if (run !== null) {
				const fromProject = inProject(run.file) || relative(userAgents, run.file).startsWith("..");
				if (fromProject) {
					const agent = query.call.agents?.[0] ?? run.file;
					loads.push({ kind: "agent definition", written: agent, at: run.file, namedIn: run.file });
				}
				if (!isolated && Array.isArray(run.extensions)) {
					for (const written of run.extensions) {
						const path = tintinwebExtensionPath(written, cwd, homeDir);
						if (path === null || loadsOwnGate(path, gate, files)) continue;
						if (fromProject || inProject(path))
							loads.push({ kind: "extension", written, at: path, namedIn: run.file });
					}
				}
			}
			if (!isolated && run?.extensions !== false) loadsExtensions = true;
		}
		if (!loadsExtensions) continue;
		const user = readPiSettings(join(agentDir, "settings.json"), files);
		const project = readPiSettings(join(cwd, ".pi", "settings.json"), files);
		if (user.state === "invalid" || project.state === "invalid") continue;
		const resources = scopeResources(
			{ settings: user, baseDir: agentDir },
			{ settings: project, baseDir: join(cwd, ".pi") },
			homeDir,
			files,
		);
		for (const resource of resources) {
			if (resource.settingsFile !== project.file || resourceLoadsOwnGate(resource, gate, files)) continue;
			loads.push({
				kind: "extension",
				written: resource.written,
				at: resource.location ?? resource.written,
				namedIn: resource.kind === "extensions-dir" ? join(cwd, ".pi", "extensions") : resource.settingsFile,
			});
		}
	}
	return loads;
}

/**
 * A launcher that starts pi processes: a project agent file of a name the call gives (pi's example reads
 * `.pi/agents/<name>.md` for its project agents) is the project's system prompt and tool list for the child.
 */
function processLoads(query: ChildGateQuery, inProject: InProject): ChildLoad[] {
	const loads: ChildLoad[] = [];
	for (const cwd of query.call.cwds) {
		for (const root of projectRootCandidates(cwd, query.files)) {
			for (const agent of query.call.agents ?? []) {
				const file = join(root, ".pi", "agents", `${agent}.md`);
				if (query.files.kind(file) === "file" && (inProject(file) || inProject(cwd))) {
					loads.push({ kind: "agent definition", written: agent, at: file, namedIn: file });
				}
			}
		}
	}
	return loads;
}

/** The reach in words, for the dialog, the tier's reason and the model: what it loads, from where, and where it runs. */
export function describeReach(reach: ChildReach, projectDir: string): string {
	const said = reach.loads.map((load) =>
		load.kind === "agent definition"
			? `the agent definition ${load.at} (a project file)`
			: `the extension ${JSON.stringify(load.written)}${load.at === load.written ? "" : ` (${load.at})`}, named in ${load.namedIn}`,
	);
	const runs = reach.outside.map((cwd) => `runs in ${cwd}, outside the project ${projectDir}`);
	return [...(said.length > 0 ? [`it loads ${said.join("; ")}`] : []), ...runs].join("; ");
}
