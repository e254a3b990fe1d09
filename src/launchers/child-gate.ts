import { dirname, join } from "node:path";
import {
	type AgentDefinition,
	type AgentScan,
	builtinAgentDirectory,
	projectAgentDirectories,
	projectRootCandidates,
	projectSettingsFile,
	scanAgentDirectory,
	userAgentDirectories,
} from "./agent-definition.ts";
import {
	type ChildExtensionEntry,
	type ChildExtensions,
	childExtensionEntry,
	childExtensions,
	type ListFrom,
} from "./child-extensions.ts";
import type { FileView } from "./file-view.ts";
import type { DelegationCall, KnownLauncher } from "./known-launcher.ts";
import { GATE_PACKAGE_NAME, type GatePackage } from "./package-manifest.ts";
import {
	type AgentOverride,
	agentOverridesOf,
	keysOf,
	type PiSettings,
	readPiSettings,
	type UsableSettings,
} from "./pi-settings.ts";
import {
	resourceLoads,
	type SettingsResource,
	type SettingsScope,
	scopeResources,
} from "./settings-resources.ts";

/** Everything the check needs; nothing else is read (the FileView is the only door to the disk). */
export interface ChildGateQuery {
	readonly launcher: KnownLauncher;
	readonly call: DelegationCall;
	/** pi's agent dir (`PI_CODING_AGENT_DIR`, else `~/.pi/agent`). */
	readonly agentDir: string;
	readonly homeDir: string;
	/** Whether pi trusts the project: a child process reads a trusted project's `.pi/settings.json`. */
	readonly projectTrusted: boolean;
	/** Read for `PI_SUBAGENT_EXTRA_AGENT_DIRS` (more pi-subagents agent directories). */
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The copy of the gate the fix names; null when it cannot be located. */
	readonly gate: GatePackage | null;
	readonly files: FileView;
}

/** The one settings change that puts the gate into the children, named exactly. */
export interface SettingsFix {
	/** The file to edit. */
	readonly file: string;
	/** Where in it: a JSON path (`subagents.defaultExtensions`, `packages`) or an agent file's frontmatter field. */
	readonly field: string;
	/** The entry to add to that list: this package's directory. */
	readonly add: string;
	/** The change in one sentence, for dialogs, block reasons and `doctor`. */
	readonly text: string;
}

export type ChildGateVerdict =
	/** `via`: which setting loads the gate in the children, in words. */
	| { readonly gated: true; readonly via: string }
	/** `why`: what the children would load instead, in words. */
	| { readonly gated: false; readonly why: string; readonly fix: SettingsFix };

/** What to add: this copy's directory, or a description when the copy cannot be located. */
function gateEntry(gate: GatePackage | null): string {
	return gate?.root ?? "<the pi-permission-hub package directory>";
}

function settingsFix(file: string, field: string, gate: GatePackage | null, note = ""): SettingsFix {
	const add = gateEntry(gate);
	const where = field.endsWith(":") ? `the \`${field}\` list of ${file}` : `\`${field}\` in ${file}`;
	return { file, field, add, text: `add ${JSON.stringify(add)} to ${where}${note}` };
}

/**
 * Would the children this launcher call starts run with the permission gate, and if not, what exact settings
 * change puts it there? Synchronous; reads only through `query.files`; never throws for anything on disk (an
 * unreadable file reads as a child that may run ungated).
 */
export function childGateVerdict(query: ChildGateQuery): ChildGateVerdict {
	if (!query.call.launches) return { gated: true, via: "the call starts no subagent" };
	return query.launcher.kind === "pi-subagents"
		? piSubagentsChildrenVerdict(query)
		: processChildrenVerdict(query);
}

/**
 * A child `pi` process loads what pi loads from settings — the agent dir's `packages`, `extensions` and
 * `extensions/` directory, and a trusted project's `.pi/` equivalents — and never the parent's `-e` flags.
 */
function processChildrenVerdict(query: ChildGateQuery): ChildGateVerdict {
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
		via ||= describeResource(loading);
	}
	return { gated: true, via };
}

function describeResource(resource: SettingsResource): string {
	if (resource.kind === "extensions-dir") return `${join(dirname(resource.settingsFile), "extensions")}/`;
	return `\`${resource.kind}\` in ${resource.settingsFile}`;
}

/**
 * pi-subagents runs a foreground child inside this process with only: the paths in its agent's `tools`, the
 * agent's `extensions` (else `subagents.defaultExtensions`, a project's value replacing the user's), and its
 * `subagentOnlyExtensions` — with settings `agentOverrides` applied last. The agent dir's own extensions are not
 * among them. It reads project settings and agents without asking whether pi trusts the project.
 *
 * Which project root and which definition of an agent it picks depends on details not repeated here, so every
 * candidate must load the gate: each project root from the cwd upward, each definition of the agent's name.
 */
function piSubagentsChildrenVerdict(query: ChildGateQuery): ChildGateVerdict {
	if (query.launcher.kind !== "pi-subagents") throw new Error("not a pi-subagents launcher");
	const { agentDir, homeDir, files, gate } = query;
	const userFile = join(agentDir, "settings.json");
	const user = readPiSettings(userFile, files);
	const defaultsFix = settingsFix(userFile, "subagents.defaultExtensions", gate, DEFAULTS_NOTE);
	if (user.state === "invalid") return unreadable(user, defaultsFix);
	const { packageRoot } = query.launcher;
	// Without the package directory its built-in agents are not read; they name no extensions of their own (0.67).
	const builtin: AgentScan[] = packageRoot
		? [scanAgentDirectory(builtinAgentDirectory(packageRoot), files)]
		: [];
	const userScans = userAgentDirectories(agentDir, homeDir, query.env).map((dir) =>
		scanAgentDirectory(dir, files),
	);
	let via = "";
	for (const cwd of query.call.cwds) {
		const roots = projectRootCandidates(cwd, files);
		for (const root of roots.length > 0 ? roots : [null]) {
			const project = root ? readPiSettings(projectSettingsFile(root), files) : null;
			if (project?.state === "invalid") return unreadable(project, defaultsFix);
			const projectScans = root
				? projectAgentDirectories(root).map((dir) => scanAgentDirectory(dir, files))
				: [];
			const scans = [...builtin, ...userScans, ...projectScans];
			if (scans.some((scan) => !scan.complete)) {
				return {
					gated: false,
					why: "there are too many agent files (or one too large) to check which extensions the subagent would load",
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
	readonly user: UsableSettings;
	readonly project: UsableSettings | null;
	readonly cwd: string;
	readonly query: ChildGateQuery;
	readonly defaultsFix: SettingsFix;
}

/** Where the child's extension list came from, for the fix. */
interface ListSource {
	readonly from: ListFrom;
	readonly file: string;
	readonly field: string;
	readonly list: readonly string[] | undefined;
}

function launchVerdict(launch: Launch, context: LaunchContext): ChildGateVerdict {
	const { user, project, cwd, query, defaultsFix } = context;
	const { definition } = launch;
	const names = definition?.names ?? [launch.agent];
	const projectDefaults = project ? keysOf(project).subagents?.defaultExtensions : undefined;
	const defaults =
		project && projectDefaults !== undefined
			? { file: project.file, list: projectDefaults }
			: { file: user.file, list: keysOf(user).subagents?.defaultExtensions };
	let via = "";
	for (const variant of overrideVariants(names, user, project)) {
		const child = childExtensions(definition, variant.override, defaults.list);
		const source = listSource(child, variant, definition, defaults);
		const entries = child.loaded.map((entry) => childExtensionEntry(entry, cwd, query.homeDir, query.files));
		const loading = entries.find((entry) => entry.kind === "path" && entry.loadsGate);
		if (loading === undefined) {
			const fix =
				source.from === "defaults" && source.file === user.file
					? defaultsFix
					: settingsFix(source.file, source.field, query.gate, source.from === "agent" ? "" : DEFAULTS_NOTE);
			return { gated: false, why: whyUngated(launch, source, entries), fix };
		}
		via ||= `${JSON.stringify(loading.written)} in ${describeSource(source, loading.written, definition)}`;
	}
	return { gated: true, via };
}

function listSource(
	child: ChildExtensions,
	variant: OverrideVariant,
	definition: AgentDefinition | null,
	defaults: { readonly file: string },
): ListSource {
	const { list } = child;
	if (child.from === "override" && variant.where) {
		return {
			from: "override",
			file: variant.where.file,
			field: `${variant.where.jsonPath}.extensions`,
			list,
		};
	}
	if (child.from === "agent" && definition) {
		return { from: "agent", file: definition.file, field: "extensions:", list };
	}
	return { from: "defaults", file: defaults.file, field: "subagents.defaultExtensions", list };
}

function describeSource(source: ListSource, entry: string, definition: AgentDefinition | null): string {
	if (source.list?.includes(entry)) return `\`${source.field}\` of ${source.file}`;
	return definition ? `the agent file ${definition.file}` : source.file;
}

function whyUngated(launch: Launch, source: ListSource, entries: readonly ChildExtensionEntry[]): string {
	const agent = launch.agent === "(any)" ? "an agent" : `agent "${launch.agent}"`;
	const from =
		source.list === undefined
			? "no extensions are configured for it (`subagents.defaultExtensions` is not set)"
			: `it loads only ${source.list.length === 0 ? "nothing" : source.list.map((e) => JSON.stringify(e)).join(", ")} (\`${source.field}\` in ${source.file})`;
	const missing = entries.flatMap((entry) =>
		entry.kind === "path" && !entry.present && entry.written.includes(GATE_PACKAGE_NAME) ? [entry.path] : [],
	);
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
	user: UsableSettings,
	project: UsableSettings | null,
): OverrideVariant[] {
	const matching = [user, ...(project ? [project] : [])].flatMap((settings) =>
		agentOverridesOf(keysOf(settings))
			.filter((o) => names.includes(o.agent))
			.map((o) => ({ ...o, file: settings.file })),
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

function unreadable(settings: Extract<PiSettings, { state: "invalid" }>, fix: SettingsFix): ChildGateVerdict {
	return {
		gated: false,
		why: `${settings.file} cannot be read as settings (pi-subagents would reject it)`,
		fix,
	};
}
