import { delimiter, dirname, join } from "node:path";
import { type AgentDefinition, scanAgentDirectory } from "./agent-definition.ts";
import type { ChildGateQuery } from "./child-gate-query.ts";
import { type ChildGateVerdict, type SettingsFix, settingsFix } from "./child-gate-verdict.ts";
import { loadsGate } from "./gate-package.ts";
import type { AgentOverride, PiSettings } from "./pi-settings.ts";
import { readPiSettings } from "./pi-settings.ts";
import { isLocalSource, resolveSettingsPath } from "./settings-paths.ts";

/**
 * pi-subagents runs a foreground child inside this process with only: the paths in its agent's `tools`, the
 * agent's `extensions` (else `subagents.defaultExtensions`, a project's value replacing the user's), and its
 * `subagentOnlyExtensions` — with settings `agentOverrides` applied last. The agent dir's own extensions are not
 * among them. It reads project settings and agents without asking whether pi trusts the project.
 *
 * Which project root and which definition of an agent it picks depends on details not repeated here, so every
 * candidate must load the gate: each project root from the cwd upward, each definition of the agent's name.
 */
export function piSubagentsChildrenVerdict(query: ChildGateQuery): ChildGateVerdict {
	if (query.launcher.kind !== "pi-subagents") throw new Error("not a pi-subagents launcher");
	const { agentDir, homeDir, files, gate } = query;
	const userFile = join(agentDir, "settings.json");
	const user = readPiSettings(userFile, files);
	const defaultsFix = settingsFix(userFile, "subagents.defaultExtensions", gate, DEFAULTS_NOTE);
	if (user.state === "invalid") return unreadable(user, defaultsFix);
	const { packageRoot } = query.launcher;
	// Without the package directory its built-in agents are not read; they name no extensions of their own (0.67).
	const builtin = packageRoot
		? scanAgentDirectory(join(packageRoot, "agents"), files)
		: { definitions: [], complete: true };
	const userDirs = [
		...(query.env.PI_SUBAGENT_EXTRA_AGENT_DIRS ?? "").split(delimiter).filter((dir) => dir.trim() !== ""),
		join(agentDir, "agents"),
		join(homeDir, ".agents"),
	].map((dir) => scanAgentDirectory(dir, files));
	let via = "";
	for (const cwd of query.call.cwds) {
		const roots = projectRoots(cwd, files);
		for (const root of roots.length > 0 ? roots : [null]) {
			const project = root ? readPiSettings(join(root, ".pi", "settings.json"), files) : null;
			if (project?.state === "invalid") return unreadable(project, defaultsFix);
			const projectDirs = root ? [join(root, ".agents"), join(root, ".pi", "agents")] : [];
			const scans = [builtin, ...userDirs, ...projectDirs.map((dir) => scanAgentDirectory(dir, files))];
			if (scans.some((scan) => !scan.complete)) {
				return {
					gated: false,
					why: "there are too many agent files to check which extensions the subagent would load",
					fix: defaultsFix,
				};
			}
			const definitions = scans.flatMap((scan) => scan.definitions);
			for (const launch of launches(definitions, query.call.agents)) {
				const verdict = launchVerdict(launch, { user, project, cwd, query, defaultsFix });
				if (!verdict.gated) return verdict;
				via ||= verdict.via;
			}
		}
	}
	return { gated: true, via };
}

const DEFAULTS_NOTE =
	"; list there every extension the subagents need (a model provider's, say): the list replaces what they load";

interface Launch {
	readonly agent: string;
	readonly definition: AgentDefinition | null;
}

/** Each definition the call may start; an agent found nowhere starts (if at all) with the defaults alone. */
function launches(definitions: readonly AgentDefinition[], agents: readonly string[] | null): Launch[] {
	if (agents === null) {
		return [
			...definitions.map((definition) => ({ agent: definition.names[0] ?? "", definition })),
			{ agent: "(any)", definition: null },
		];
	}
	return agents.flatMap((agent): Launch[] => {
		const found = definitions.filter((definition) => definition.names.includes(agent));
		return found.length > 0
			? found.map((definition) => ({ agent, definition }))
			: [{ agent, definition: null }];
	});
}

interface LaunchContext {
	readonly user: PiSettings;
	readonly project: PiSettings | null;
	readonly cwd: string;
	readonly query: ChildGateQuery;
	readonly defaultsFix: SettingsFix;
}

/** Where the child's extension list came from, for the fix. */
interface ListSource {
	readonly file: string;
	readonly field: string;
	readonly list: readonly string[] | undefined;
}

function launchVerdict(launch: Launch, context: LaunchContext): ChildGateVerdict {
	const { user, project, cwd, query, defaultsFix } = context;
	const { definition } = launch;
	const names = definition?.names ?? [launch.agent];
	const defaults: ListSource =
		project?.subagents.defaultExtensions !== undefined
			? {
					file: project.file,
					field: "subagents.defaultExtensions",
					list: project.subagents.defaultExtensions,
				}
			: { file: user.file, field: "subagents.defaultExtensions", list: user.subagents.defaultExtensions };
	const own: ListSource | null =
		definition?.extensions !== undefined
			? { file: definition.file, field: "extensions:", list: definition.extensions }
			: null;
	let via = "";
	for (const variant of overrideVariants(names, user, project)) {
		const override = variant.override;
		const source: ListSource =
			override.extensions !== undefined && variant.where
				? {
						file: variant.where.file,
						field: `${variant.where.jsonPath}.extensions`,
						list: override.extensions === false ? undefined : override.extensions,
					}
				: (own ?? defaults);
		const tools =
			override.tools !== undefined
				? Array.isArray(override.tools)
					? override.tools
					: []
				: definition?.tools;
		const subagentOnly =
			override.subagentOnlyExtensions !== undefined
				? override.subagentOnlyExtensions || []
				: (definition?.subagentOnlyExtensions ?? []);
		const loaded = [...(tools ?? []).filter(isPathTool), ...(source.list ?? []), ...subagentOnly];
		const loading = loaded.find((entry) => entryLoadsGate(entry, cwd, query));
		if (loading === undefined) {
			const fix =
				source === defaults && source.file === user.file
					? defaultsFix
					: settingsFix(source.file, source.field, query.gate, source === own ? "" : DEFAULTS_NOTE);
			return { gated: false, why: whyUngated(launch, source, loaded, cwd, query), fix };
		}
		via ||= `${JSON.stringify(loading)} in ${describeSource(source, loading, definition)}`;
	}
	return { gated: true, via };
}

function describeSource(source: ListSource, entry: string, definition: AgentDefinition | null): string {
	if (source.list?.includes(entry)) return `\`${source.field}\` of ${source.file}`;
	return definition ? `the agent file ${definition.file}` : source.file;
}

function whyUngated(
	launch: Launch,
	source: ListSource,
	loaded: readonly string[],
	cwd: string,
	query: ChildGateQuery,
): string {
	const agent = launch.agent === "(any)" ? "an agent" : `agent "${launch.agent}"`;
	const from =
		source.list === undefined
			? "no extensions are configured for it (`subagents.defaultExtensions` is not set)"
			: `it loads only ${source.list.length === 0 ? "nothing" : source.list.map((e) => JSON.stringify(e)).join(", ")} (\`${source.field}\` in ${source.file})`;
	const missing = loaded
		.filter((entry) => isLocalSource(entry) && entry.includes("pi-permission-hub"))
		.map((entry) => resolveSettingsPath(entry, cwd, query.homeDir))
		.filter((path) => query.files.kind(path) === null);
	const missingText = missing.length > 0 ? `; ${missing.join(", ")} does not exist` : "";
	return `pi-subagents runs ${agent} inside this process with only the extensions its settings name, and ${from}${missingText}`;
}

interface OverrideVariant {
	readonly override: AgentOverride;
	/** The most specific settings entry the extensions field came from, when an override sets it. */
	readonly where: { readonly file: string; readonly jsonPath: string } | null;
}

/**
 * The overrides that may apply: the user's then the project's `agentOverrides` for this agent (the project's
 * fields win), alone or with any one provider's overrides on top (the provider in use is not known here).
 */
function overrideVariants(
	names: readonly string[],
	user: PiSettings,
	project: PiSettings | null,
): OverrideVariant[] {
	const matching = [user, ...(project ? [project] : [])].flatMap((settings) =>
		settings.subagents.overrides
			.filter((o) => names.includes(o.agent))
			.map((o) => ({ ...o, file: settings.file, byProvider: o.jsonPath.includes("ByProvider") })),
	);
	let base: OverrideVariant = { override: {}, where: null };
	for (const o of matching.filter((m) => !m.byProvider)) base = layer(base, o);
	return [base, ...matching.filter((m) => m.byProvider).map((o) => layer(base, o))];
}

function layer(
	under: OverrideVariant,
	over: { override: AgentOverride; file: string; jsonPath: string },
): OverrideVariant {
	return {
		override: { ...under.override, ...over.override },
		where:
			over.override.extensions !== undefined ? { file: over.file, jsonPath: over.jsonPath } : under.where,
	};
}

/** pi-subagents loads a `tools` entry as an extension when it looks like a path. */
function isPathTool(tool: string): boolean {
	return tool.includes("/") || tool.endsWith(".ts") || tool.endsWith(".js");
}

/**
 * pi loads these entries as temporary sources: local paths relative to the child's cwd. A remote source
 * (`npm:`, `git:`) is installed at launch where this check does not look, so it does not count.
 */
function entryLoadsGate(entry: string, cwd: string, query: ChildGateQuery): boolean {
	if (!isLocalSource(entry)) return false;
	return loadsGate(resolveSettingsPath(entry, cwd, query.homeDir), query.files);
}

/** Directories from `cwd` upward that pi-subagents takes for a project root (they hold `.pi/` or `.agents/`). */
function projectRoots(cwd: string, files: ChildGateQuery["files"]): string[] {
	const roots: string[] = [];
	let current = cwd;
	for (;;) {
		if (files.kind(join(current, ".pi")) === "dir" || files.kind(join(current, ".agents")) === "dir") {
			roots.push(current);
		}
		const parent = dirname(current);
		if (parent === current) return roots;
		current = parent;
	}
}

function unreadable(settings: PiSettings, fix: SettingsFix): ChildGateVerdict {
	return {
		gated: false,
		why: `${settings.file} cannot be read as settings (pi-subagents would reject it)`,
		fix,
	};
}
