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
import { type DelegationCall, type KnownLauncher, launcherDescription } from "./known-launcher.ts";
import { extensionFilesAt, GATE_PACKAGE_NAME, type GatePackage, isOwnGateEntry } from "./package-manifest.ts";
import {
	type AgentOverride,
	agentOverridesOf,
	keysOf,
	type PiSettings,
	readPiSettings,
	type UsableSettings,
} from "./pi-settings.ts";
import type { PlannedChange, SettingsKey } from "./settings-change.ts";
import {
	resourceLoadsOwnGate,
	resourceMayLoad,
	type SettingsResource,
	type SettingsScope,
	scopeResources,
} from "./settings-resources.ts";
import { isUnknownRun, type TintinwebRun } from "./tintinweb-agent.ts";
import {
	tintinwebCanonicalName,
	tintinwebExtensionNames,
	tintinwebExtensionPath,
} from "./tintinweb-extension-names.ts";

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
	/**
	 * This copy of the gate: the one the fix names, and the only one that counts as the gate in a child (by real
	 * path: a package merely named pi-permission-hub may be planted). Null when it cannot be located: then no
	 * child counts as gated.
	 */
	readonly gate: GatePackage | null;
	/**
	 * The entries a settings change may write, as `doctor --fix` would: the `packages` entry that loads a lasting
	 * copy of the gate, and the path children's lists get. Null when there is no lasting copy: no change is offered.
	 */
	readonly fixEntries: FixEntries | null;
	readonly files: FileView;
}

export interface FixEntries {
	readonly packages: string;
	readonly childList: string;
}

/** The one change that puts the gate into the children, named exactly. */
export interface SettingsFix {
	/** The file to edit; null when the change is not in a file (the call's own `isolated`). */
	readonly file: string | null;
	/** Where in it: a JSON path (`subagents.defaultExtensions`, `packages`) or an agent file's frontmatter field. */
	readonly field: string;
	/** The change in one sentence, for dialogs, block reasons and `doctor`. */
	readonly text: string;
	/** The settings change that makes it, written the way `doctor --fix` writes it; null when a person must. */
	readonly automatic: PlannedChange | null;
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

function settingsFix(
	file: string,
	field: string,
	gate: GatePackage | null,
	note = "",
	automatic: PlannedChange | null = null,
): SettingsFix {
	const add = automatic ? String(automatic.change.after.at(-1)) : gateEntry(gate);
	const where = field.endsWith(":") ? `the \`${field}\` list of ${file}` : `\`${field}\` in ${file}`;
	return { file, field, automatic, text: `add ${JSON.stringify(add)} to ${where}${note}` };
}

/** Appending `entry` to a list key of a settings file as it was read (missing: created). */
function appendChange(
	settings: UsableSettings,
	key: SettingsKey,
	before: readonly unknown[] | undefined,
	entry: string,
): PlannedChange {
	return {
		change: { file: settings.file, key, before: before ?? null, after: [...(before ?? []), entry] },
		analysedText: settings.state === "loaded" ? settings.text : null,
	};
}

/**
 * Would the children this launcher call starts run with the permission gate, and if not, what exact settings
 * change puts it there? Synchronous; reads only through `query.files`; never throws for anything on disk (an
 * unreadable file reads as a child that may run ungated).
 */
export function childGateVerdict(query: ChildGateQuery): ChildGateVerdict {
	if (!query.call.launches) return { gated: true, via: "the call starts no subagent" };
	switch (launcherDescription(query.launcher.kind).children) {
		case "listed-in-process":
			return piSubagentsChildrenVerdict(query);
		case "agent-dir-in-process":
			return agentDirChildrenVerdict(query);
		case "process":
			return settingsChildrenVerdict(query, query.projectTrusted, PROCESS_CHILDREN, null);
		case "unknown":
			return unknownChildrenVerdict(query.launcher.source);
	}
}

/** A launcher whose children's extensions cannot be told: ungated, and no settings change is known to help. */
function unknownChildrenVerdict(source: string | null): ChildGateVerdict {
	const from = source === null ? "a source pi does not name" : source;
	return {
		gated: false,
		why: `the tool comes from ${from}, not from a launcher the gate knows, so what its subagents load cannot be told`,
		fix: {
			file: null,
			field: "Agent",
			text: "use @tintinweb/pi-subagents' own Agent tool: for any other, each delegation asks",
			automatic: null,
		},
	};
}

/** How children that load what the settings load come to run, for the reason given when they are ungated. */
const PROCESS_CHILDREN =
	"a subagent runs as a separate pi process, which does not inherit this session's -e flags and loads only the extensions in";
const AGENT_DIR_CHILDREN =
	"@tintinweb/pi-subagents runs a subagent inside this process with the extensions pi discovers afresh, never this session's -e flags: those in";

/**
 * Children that load what pi loads from settings — the agent dir's `packages`, `extensions` and `extensions/`
 * directory, and (`projectRead`) a project's `.pi/` equivalents — and never the parent's `-e` flags: a child
 * `pi` process (a trusted project only), or @tintinweb/pi-subagents' in-process child (every project).
 */
function settingsChildrenVerdict(
	query: ChildGateQuery,
	projectRead: boolean,
	how: string,
	narrowing: SettingsNarrowing | null,
): ChildGateVerdict {
	const { agentDir, homeDir, files, gate } = query;
	const userFile = join(agentDir, "settings.json");
	const userSettings = readPiSettings(userFile, files);
	const note = " (what `pi install` writes), so every pi process started from this agent dir loads it";
	if (userSettings.state === "invalid") {
		return {
			gated: false,
			why: `${userFile} cannot be read as pi settings`,
			fix: settingsFix(userFile, "packages", gate, note),
		};
	}
	const user: SettingsScope = { settings: userSettings, baseDir: agentDir };
	let via = "";
	for (const cwd of query.call.cwds) {
		let project: SettingsScope | null = null;
		if (projectRead) {
			const projectDir = join(cwd, ".pi");
			const settings = readPiSettings(join(projectDir, "settings.json"), files);
			if (settings.state === "invalid") {
				return {
					gated: false,
					why: `${settings.file} cannot be read as pi settings`,
					fix: settingsFix(userFile, "packages", gate, note),
				};
			}
			project = { settings, baseDir: projectDir };
		}
		const resources = scopeResources(user, project, homeDir, files);
		const loading = resources.find((resource) =>
			resource.files.some((file) => isOwnGateEntry(file, gate, files) && (narrowing?.keeps(file) ?? true)),
		);
		if (loading === undefined && narrowing !== null) {
			if (resources.some((resource) => resourceLoadsOwnGate(resource, gate, files))) return narrowing.dropped;
		}
		if (loading === undefined) {
			// As `doctor --fix`: no change when an entry names the gate but does not load it now (pi keeps the
			// first entry of a package, so another would not help).
			const named = resources.some((resource) => resourceMayLoad(resource, GATE_PACKAGE_NAME, files));
			const automatic =
				named || query.fixEntries === null
					? null
					: appendChange(userSettings, "packages", keysOf(userSettings).packages, query.fixEntries.packages);
			return {
				gated: false,
				why: `${how} ${userFile}${project ? ` and ${project.settings.file}` : ""}; none of them is pi-permission-hub`,
				fix: settingsFix(userFile, "packages", gate, note, automatic),
			};
		}
		via ||= describeResource(loading);
	}
	return { gated: true, via };
}

/**
 * @tintinweb/pi-subagents starts each child with what pi discovers from settings (`settingsChildrenVerdict`),
 * narrowed by the agent's file: `isolated` (the file's, else the call's) or `extensions: false` load nothing; an
 * `extensions:` list keeps only the discovered extensions it names (`*` keeps all) and loads its paths afresh;
 * `exclude_extensions:` drops what it names. Only the settings' part is a change a program can make.
 */
function agentDirChildrenVerdict(query: ChildGateQuery): ChildGateVerdict {
	let via = "";
	for (const cwd of query.call.cwds) {
		const agents = query.call.agents ?? [null];
		// Read with the call: its one agent, in its one directory (the session's); each configuration it may run with.
		const runs = query.call.tintinwebRuns.length > 0 ? query.call.tintinwebRuns : [null];
		for (const [agent, definition] of agents.flatMap((agent) => runs.map((run) => [agent, run] as const))) {
			const narrowed = tintinwebAgentVerdict(agent, definition, query.call, cwd, query);
			if (narrowed !== null && "gated" in narrowed) {
				if (!narrowed.gated) return narrowed;
				via ||= narrowed.via;
				continue;
			}
			const verdict = settingsChildrenVerdict(
				{ ...query, call: { ...query.call, cwds: [cwd] } },
				true,
				AGENT_DIR_CHILDREN,
				narrowed,
			);
			if (!verdict.gated) return verdict;
			via ||= verdict.via;
		}
	}
	return { gated: true, via };
}

/**
 * What the agent's own fields decide: ungated (no extensions, or the gate left out), gated (a path to the gate is
 * loaded afresh), or what settings load decides: as they are (null), or narrowed by the file's lists.
 */
function tintinwebAgentVerdict(
	agent: string | null,
	definition: TintinwebRun,
	call: DelegationCall,
	cwd: string,
	query: ChildGateQuery,
): ChildGateVerdict | SettingsNarrowing | null {
	const who = agent === null ? "an agent" : `agent "${agent}"`;
	const byFile = (why: string, field: string, change: string): ChildGateVerdict => ({
		gated: false,
		why: `@tintinweb/pi-subagents would run ${who} inside this process ${why}`,
		fix: {
			file: definition?.file ?? null,
			field,
			text: `${change} in ${definition?.file ?? "its agent file"}`,
			automatic: null,
		},
	});
	if (isUnknownRun(definition)) {
		return {
			gated: false,
			why: definition.unknown,
			fix: { file: definition.file, field: definition.field, text: definition.fix, automatic: null },
		};
	}
	const isolated = definition?.isolated ?? call.withoutExtensions;
	if (isolated) {
		if (definition?.isolated === true) {
			return byFile("with `isolated: true` (no extension at all)", "isolated:", "remove `isolated: true`");
		}
		return {
			gated: false,
			why: `the call asks @tintinweb/pi-subagents to run ${who} with \`isolated: true\`: no extension at all, the gate included`,
			fix: { file: null, field: "isolated", text: "call it without `isolated: true`", automatic: null },
		};
	}
	if (definition === null) return null;
	const { files, gate } = query;
	// The names it knows this copy of the gate by; with no copy located there are none (nothing is the gate).
	const gateNames = [
		...new Set((gate?.entries ?? []).flatMap((entry) => tintinwebExtensionNames(entry, files))),
	];
	const suggested = gateNames.includes(GATE_PACKAGE_NAME)
		? GATE_PACKAGE_NAME
		: (gateNames[0] ?? GATE_PACKAGE_NAME);
	const gateName = JSON.stringify(suggested);
	const known =
		suggested === GATE_PACKAGE_NAME
			? ""
			: ` (the name @tintinweb/pi-subagents knows ${JSON.stringify(GATE_PACKAGE_NAME)} by)`;
	const excluded = definition.excluded.find((name) => gateNames.includes(name.toLowerCase()));
	if (excluded !== undefined) {
		return byFile(
			`with ${JSON.stringify(excluded)} in its \`exclude_extensions:\`, which drops the gate`,
			"exclude_extensions:",
			`remove ${JSON.stringify(excluded)} from \`exclude_extensions:\``,
		);
	}
	const { extensions } = definition;
	if (extensions === false) {
		return byFile(
			"with `extensions: false` (no extension at all)",
			"extensions:",
			`list ${gateName}${known} in \`extensions:\``,
		);
	}
	const entries = extensions === true ? [] : extensions;
	const read = entries.map((entry) => ({ entry, path: tintinwebExtensionPath(entry, cwd, query.homeDir) }));
	const paths = read.flatMap(({ entry, path }) => (path === null ? [] : [{ entry, path }]));
	// Its loader keeps an extension whose names it lists (a path entry lists the path's own name), or all with `*`.
	const keepAll = extensions === true || entries.includes("*");
	const kept = new Set(
		read.map(({ entry, path }) => (path === null ? entry.toLowerCase() : tintinwebCanonicalName(path))),
	);
	const keeps = (names: readonly string[]): boolean => keepAll || names.some((name) => kept.has(name));
	// A path entry answers to the names of the path as written (a link's, not its target's): its exclusion drops it.
	const dropped = new Set(definition.excluded.map((name) => name.toLowerCase()));
	const byPath = paths.find(({ path }) =>
		extensionFilesAt(path, files).some((file) => {
			if (!isOwnGateEntry(file, gate, files)) return false;
			const names = tintinwebExtensionNames(file, files);
			return keeps(names) && !names.some((name) => dropped.has(name));
		}),
	);
	if (byPath)
		return { gated: true, via: `${JSON.stringify(byPath.entry)} in the agent file ${definition.file}` };
	const notKept = byFile(
		`with only the extensions its \`extensions:\` keeps (${entries.map((e) => JSON.stringify(e)).join(", ")}), not the gate, which it knows as ${gateName}`,
		"extensions:",
		`add ${gateName}${known} to \`extensions:\``,
	);
	return {
		// As its loader: the gate settings load answers to the names of the path they load it by (a link's own).
		keeps: (file) => {
			const names = tintinwebExtensionNames(file, files);
			return keeps(names) && !names.some((name) => dropped.has(name));
		},
		dropped: keeps(gateNames)
			? byFile(
					"without the gate as settings load it: the name of the path they load it by is not kept by its `extensions:`, or is dropped by its `exclude_extensions:`",
					"extensions:",
					`load the gate by its package (${JSON.stringify(GATE_PACKAGE_NAME)} in \`packages\`), not through a link, or list the link's name`,
				)
			: notKept,
	};
}

/** What an agent file leaves of the extensions settings load: the files it keeps, and the verdict when the gate is not one. */
interface SettingsNarrowing {
	readonly keeps: (file: string) => boolean;
	readonly dropped: ChildGateVerdict;
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
	const { agentDir, homeDir, files, gate } = query;
	const userFile = join(agentDir, "settings.json");
	const user = readPiSettings(userFile, files);
	if (user.state === "invalid") {
		return unreadable(user, settingsFix(userFile, "subagents.defaultExtensions", gate, DEFAULTS_NOTE));
	}
	const defaultsFix = defaultListFix(user, query);
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

/** Add the gate to a settings file's `subagents.defaultExtensions`: a change `doctor --fix` makes too. */
function defaultListFix(settings: UsableSettings, query: ChildGateQuery): SettingsFix {
	const key = "subagents.defaultExtensions";
	const automatic =
		query.fixEntries === null
			? null
			: appendChange(
					settings,
					key,
					keysOf(settings).subagents?.defaultExtensions,
					query.fixEntries.childList,
				);
	return settingsFix(settings.file, key, query.gate, DEFAULTS_NOTE, automatic);
}

const DEFAULTS_NOTE =
	"; list there every extension the subagents need (a model provider's, say): the list replaces what they load";

export interface Launch {
	readonly agent: string;
	readonly definition: AgentDefinition | null;
}

/** Each definition the call may start; an agent found nowhere starts (if at all) with the defaults alone. */
export function launches(
	definitions: readonly AgentDefinition[],
	agents: readonly string[] | null,
): Launch[] {
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
		const entries = child.loaded.map((entry) =>
			childExtensionEntry(entry, cwd, query.homeDir, query.gate, query.files),
		);
		const loading = entries.find((entry) => entry.kind === "path" && entry.loadsGate);
		if (loading === undefined) {
			const fix =
				source.from !== "defaults"
					? settingsFix(source.file, source.field, query.gate, source.from === "agent" ? "" : DEFAULTS_NOTE)
					: source.file === user.file || project === null
						? defaultsFix
						: defaultListFix(project, query);
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

export interface OverrideVariant {
	readonly override: AgentOverride;
	/** The most specific settings entry the extensions field came from, when an override sets it. */
	readonly where: { readonly file: string; readonly jsonPath: string } | null;
}

/**
 * The overrides that may apply: the user's then the project's `agentOverrides` for this agent (the project's
 * fields win), alone or with any one provider's overrides on top (the provider in use is not known here).
 */
export function overrideVariants(
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
