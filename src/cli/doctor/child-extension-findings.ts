/**
 * The extension lists pi-subagents starts its children with, and whether they load the gate: the agent dir's
 * and a project's `subagents.defaultExtensions`, agents' own `extensions:`, `subagents.agentOverrides`, and
 * every entry that fails open (a missing or relative path, a package spec).
 */
import {
	type AgentDefinition,
	builtinAgentDirectory,
	projectAgentDirectories,
	projectRootCandidates,
	scanAgentDirectory,
	userAgentDirectories,
} from "../../launchers/agent-definition.ts";
import {
	type ChildExtensionEntry,
	childExtensionEntry,
	childExtensions,
} from "../../launchers/child-extensions.ts";
import type { FileView } from "../../launchers/file-view.ts";
import { PI_SUBAGENTS_PACKAGE } from "../../launchers/known-launcher.ts";
import { GATE_PACKAGE_NAME, type GatePackage } from "../../launchers/package-manifest.ts";
import {
	agentOverridesOf,
	classifySource,
	keysOf,
	type LoadedSettings,
	type UsableSettings,
} from "../../launchers/pi-settings.ts";
import type { SettingsChange } from "../../launchers/settings-change.ts";
import { resourceMayLoad, type SettingsResource } from "../../launchers/settings-resources.ts";
import { type DoctorInput, type Finding, finding } from "./finding.ts";
import { describeResource } from "./gate-findings.ts";

/** Where an extension list of a child comes from, for the messages: its file and how to name it there. */
interface ListPlace {
	readonly file: string;
	/** E.g. `"subagents.defaultExtensions"` or `the "extensions:" of agent "worker"`. */
	readonly label: string;
}

export interface ListCheckContext {
	/** Relative entries are resolved by pi against the child's working directory: the project being checked. */
	readonly projectDir: string;
	readonly homeDir: string;
	/** The entry the doctor recommends (the gate's package directory), or null when it knows none. */
	readonly gateEntry: string | null;
	/** The copy of the gate that counts in a child's list (by real path: a package named like it proves nothing). */
	readonly gate: GatePackage | null;
	readonly view: FileView;
}

/**
 * Whether a child started with these entries certainly loads the gate: only an existing absolute or `~/` path
 * to it counts. A relative path depends on the directory each child runs in, which the doctor does not know.
 */
function listLoadsGate(entries: readonly string[], ctx: ListCheckContext): boolean {
	return readEntries(entries, ctx).some(certainlyGate);
}

function readEntries(entries: readonly string[], ctx: ListCheckContext): ChildExtensionEntry[] {
	return entries.map((written) =>
		childExtensionEntry(written, ctx.projectDir, ctx.homeDir, ctx.gate, ctx.view),
	);
}

function certainlyGate(entry: ChildExtensionEntry): boolean {
	return entry.kind === "path" && entry.anchored && entry.loadsGate;
}

interface ListCheck {
	/** Whether an entry certainly loads the gate in the child (see `listLoadsGate`). */
	readonly gated: boolean;
	/** Entries that fail open: missing paths, relative paths, package specs. */
	readonly warnings: readonly Finding[];
}

/** Check the extension list a launcher gives its children, and warn about each entry that fails open. */
function checkChildExtensionList(
	entries: readonly string[],
	place: ListPlace,
	ctx: ListCheckContext,
): ListCheck {
	const useInstead =
		ctx.gateEntry === null
			? "the absolute path of the pi-permission-hub directory"
			: JSON.stringify(ctx.gateEntry);
	const read = readEntries(entries, ctx);
	const warnings = read.flatMap((entry): Finding[] => {
		const quoted = JSON.stringify(entry.written);
		if (entry.kind === "path" && entry.anchored && !entry.present) {
			return [
				finding("extension-path-missing", {
					file: place.file,
					explanation: `${place.label} in ${place.file} lists ${quoted}, which does not exist. pi skips a missing extension path without a word, so whatever it was meant to load is not in the child.`,
					fix: `correct or remove ${quoted} in ${place.label} in ${place.file}`,
				}),
			];
		}
		if (entry.kind === "path" && !entry.anchored) {
			return [
				finding("extension-path-relative", {
					file: place.file,
					explanation: `${place.label} in ${place.file} lists the relative path ${quoted}. pi resolves it against the directory each child runs in, so it loads something else (or nothing) in other directories; the doctor does not count it as the gate.`,
					fix: `use an absolute or ~/ path in ${place.label} in ${place.file} (for the gate: ${useInstead})`,
				}),
			];
		}
		if (entry.kind === "npm" && entry.name === GATE_PACKAGE_NAME) {
			return [
				finding("extension-package-spec", {
					file: place.file,
					explanation: `${place.label} in ${place.file} lists ${quoted}. For a child pi installs that package into a temporary directory when it is missing, and starts the child without it when the install fails (offline, for example); the doctor does not count it as the gate.`,
					fix: `replace ${quoted} with ${useInstead} in ${place.label} in ${place.file}`,
				}),
			];
		}
		return [];
	});
	return { gated: read.some(certainlyGate), warnings };
}

const REPLACES_ALL =
	"The list is the whole extension set of those children: whatever else they need (a model provider, for example) must be listed too.";

/** Finding 2: `subagents.defaultExtensions` of the agent dir, which every agent without its own list gets. */
export function userDefaultExtensions(
	user: UsableSettings,
	subagents: readonly SettingsResource[],
	ctx: ListCheckContext,
): Finding[] {
	const { file } = user;
	const list = keysOf(user).subagents?.defaultExtensions;
	const where = subagents.map(describeResource).join("; ");
	const why = `pi-subagents (${where}) starts its children inside the pi process, with only the extensions of "subagents.defaultExtensions" in ${file} (or of an agent's own "extensions:"), never the ones installed in the agent dir.`;
	if (list === undefined) {
		return [
			finding("subagents-default-extensions-missing", {
				file,
				explanation: `${why} ${file} has no such list, so every child runs ungated.`,
				...listFix(file, null, ctx.gateEntry),
			}),
		];
	}
	const check = checkChildExtensionList(list, { file, label: `"subagents.defaultExtensions"` }, ctx);
	if (check.gated) return [...check.warnings];
	return [
		finding("subagents-default-extensions-without-gate", {
			file,
			explanation: `${why} That list does not load ${GATE_PACKAGE_NAME}, so children of agents without their own "extensions:" run ungated.`,
			...listFix(file, list, ctx.gateEntry),
		}),
		...check.warnings,
	];
}

function listFix(
	file: string,
	before: readonly string[] | null,
	entry: string | null,
): { fix: string; change: SettingsChange | null } {
	if (entry === null) {
		return {
			fix: `install the gate first (see gate-not-installed), then add its directory to "subagents.defaultExtensions" in ${file}. ${REPLACES_ALL}`,
			change: null,
		};
	}
	return {
		fix: `add ${JSON.stringify(entry)} to "subagents.defaultExtensions" in ${file} (--fix does it${before === null ? ", creating the key" : ""}). ${REPLACES_ALL}`,
		change: { file, key: "subagents.defaultExtensions", before, after: [...(before ?? []), entry] },
	};
}

/**
 * What the root loads from the agent dir that pi-subagents' children will not get: they load only the list (as it
 * is after the doctor's own fix), so a model provider the root has is missing in them.
 */
export function childrenLoseExtensions(
	user: UsableSettings,
	resources: readonly SettingsResource[],
	childEntry: string | null,
	input: DoctorInput,
): Finding[] {
	const { file } = user;
	const { view } = input;
	// A path compares by where it leads; one that leads nowhere (yet) by itself.
	const placeOf = (path: string): string => view.realPath(path) ?? path;
	const list = [...(keysOf(user).subagents?.defaultExtensions ?? [])];
	if (childEntry !== null) list.push(childEntry);
	const listed = new Set(
		list.flatMap((entry) => {
			const source = classifySource(entry, input.projectDir, input.homeDir);
			if (source.kind === "path") return [placeOf(source.path)];
			return source.kind === "npm" ? [`npm:${source.name}`] : [];
		}),
	);
	const lost = resources.filter((r) => {
		if (r.location === null) return false;
		if (resourceMayLoad(r, GATE_PACKAGE_NAME, view) || resourceMayLoad(r, PI_SUBAGENTS_PACKAGE, view))
			return false;
		const npm = classifySource(r.written, input.agentDir, input.homeDir);
		return !listed.has(placeOf(r.location)) && !(npm.kind === "npm" && listed.has(`npm:${npm.name}`));
	});
	if (lost.length === 0) return [];
	const names = lost.map((r) => JSON.stringify(r.written)).join(", ");
	const paths = lost.map((r) => JSON.stringify(r.location)).join(", ");
	return [
		finding("subagents-children-lose-extensions", {
			file,
			explanation: `Children of pi-subagents load only "subagents.defaultExtensions" (in ${file}), not these extensions the root loads from the agent dir: ${names}.`,
			fix: `add to "subagents.defaultExtensions" in ${file} those children need (a model provider, for example): ${paths}`,
		}),
	];
}

/** Finding 3: a project list replaces the agent dir's for children started there (pi-subagents asks no trust). */
export function projectDefaultExtensions(project: LoadedSettings, ctx: ListCheckContext): Finding[] {
	const list = project.keys.subagents?.defaultExtensions;
	if (list === undefined) return [];
	const check = checkChildExtensionList(
		list,
		{ file: project.file, label: `"subagents.defaultExtensions"` },
		ctx,
	);
	if (check.gated) return [...check.warnings];
	const { fix, change } = listFix(project.file, list, ctx.gateEntry);
	return [
		finding("project-default-extensions-without-gate", {
			file: project.file,
			explanation: `${project.file} sets "subagents.defaultExtensions" without ${GATE_PACKAGE_NAME}. pi-subagents uses a project's list instead of the agent dir's, whether or not pi trusts the project, so children started there run ungated.`,
			fix,
			change,
		}),
		...check.warnings,
	];
}

export type AgentScope = "user" | "project" | "builtin";

/** An agent definition file of pi-subagents, and which of its directories it was found in. */
export interface ScopedAgent {
	readonly definition: AgentDefinition;
	readonly scope: AgentScope;
}

export interface AgentDefinitions {
	readonly definitions: readonly ScopedAgent[];
	/** Directories whose scan stopped early: an agent in them was not checked. */
	readonly incomplete: readonly string[];
}

/** User, project and pi-subagents' own (builtin) agent definitions. */
export function agentDefinitions(
	subagents: readonly SettingsResource[],
	input: DoctorInput,
): AgentDefinitions {
	const { view } = input;
	const dirs: [string, AgentScope][] = [
		...userAgentDirectories(input.agentDir, input.homeDir, input.env).map((d): [string, AgentScope] => [
			d,
			"user",
		]),
		...projectRootCandidates(input.projectDir, view).flatMap((root) =>
			projectAgentDirectories(root).map((d): [string, AgentScope] => [d, "project"]),
		),
		...subagents.flatMap((r): [string, AgentScope][] =>
			r.location === null ? [] : [[builtinAgentDirectory(r.location), "builtin"]],
		),
	];
	const seen = new Set<string>();
	const definitions: ScopedAgent[] = [];
	const incomplete: string[] = [];
	for (const [dir, scope] of dirs) {
		const real = view.realPath(dir);
		if (real === null || seen.has(real)) continue;
		seen.add(real);
		const scan = scanAgentDirectory(dir, view);
		if (!scan.complete) incomplete.push(dir);
		definitions.push(...scan.definitions.map((definition) => ({ definition, scope })));
	}
	return { definitions, incomplete };
}

/** Agent directories too large to read in full: what is in the rest is not known, so it counts as a problem. */
export function agentScanIncomplete(agents: AgentDefinitions): Finding[] {
	return agents.incomplete.map((dir) =>
		finding("agent-definitions-not-all-read", {
			file: dir,
			explanation: `${dir} holds too many agent files (or one too large) for the doctor to read them all; an agent it did not read may start its children without the gate.`,
			fix: `move what is not an agent definition out of ${dir}, then run the doctor again`,
		}),
	);
}

/**
 * `subagents.agentOverrides.<agent>.extensions` (and per provider) replace an agent's list, or remove it (`false`):
 * a problem when a child of any definition of that agent (or of an agent defined nowhere) would miss the gate.
 */
export function agentOverrides(
	settings: LoadedSettings,
	agents: readonly ScopedAgent[],
	ctx: ListCheckContext,
): Finding[] {
	return agentOverridesOf(settings.keys).flatMap(({ agent, jsonPath, override }) => {
		if (override.extensions === undefined) return [];
		const label = `"${jsonPath}.extensions"`;
		const place: ListPlace = { file: settings.file, label };
		const own = override.subagentOnlyExtensions === false ? [] : (override.subagentOnlyExtensions ?? []);
		const check = checkChildExtensionList([...(override.extensions || []), ...own], place, ctx);
		const matching = agents.filter((a) => a.definition.names.includes(agent)).map((a) => a.definition);
		const gated = (matching.length > 0 ? matching : [null]).every((definition) =>
			listLoadsGate(childExtensions(definition, override, undefined).loaded, ctx),
		);
		if (gated) return [...check.warnings];
		const what =
			override.extensions === false
				? `removes the extension list of agent "${agent}", so its children start with none`
				: `replaces the extension list of agent "${agent}" with one that does not load ${GATE_PACKAGE_NAME}`;
		return [
			finding("agent-override-extensions-without-gate", {
				file: settings.file,
				explanation: `${label} in ${settings.file} ${what}: they run ungated.`,
				fix: `list ${ctx.gateEntry === null ? "the gate's directory" : JSON.stringify(ctx.gateEntry)} in ${label} (or remove the override) in ${settings.file}; the doctor does not change overrides`,
			}),
			...check.warnings,
		];
	});
}

/** Finding 4: an agent with its own `extensions:` ignores the defaults; no auto-fix (agent files are the user's). */
export function agentFinding(agent: ScopedAgent, ctx: ListCheckContext): Finding[] {
	const { definition, scope } = agent;
	if (definition.extensions === undefined) return [];
	const name = definition.names[0] ?? "";
	const place: ListPlace = { file: definition.file, label: `the "extensions:" of agent "${name}"` };
	const check = checkChildExtensionList(childExtensions(definition, {}, undefined).loaded, place, ctx);
	if (check.gated) return [...check.warnings];
	return [
		finding("agent-extensions-without-gate", {
			file: definition.file,
			explanation: `Agent "${name}" (${scope}, ${definition.file}) has its own "extensions:", which pi-subagents uses instead of "subagents.defaultExtensions"; it does not load ${GATE_PACKAGE_NAME}, so this agent's children run ungated.`,
			fix: `add ${ctx.gateEntry === null ? "the gate's directory" : JSON.stringify(ctx.gateEntry)} to the "extensions:" (or "subagentOnlyExtensions:") line of ${definition.file}; the doctor does not edit agent files`,
		}),
		...check.warnings,
	];
}
