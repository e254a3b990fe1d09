import { basename, join } from "node:path";
import type { FileView } from "./file-view.ts";
import { parseTintinwebFrontmatter } from "./tintinweb-frontmatter.ts";
import { tintinwebDefaultsDisabled } from "./tintinweb-settings.ts";

/** The fields of a @tintinweb/pi-subagents agent file (`<dir>/<type>.md`) that decide what its children load. */
export interface TintinwebAgent {
	readonly file: string;
	/** `isolated:` (wins over the call's); undefined when the file does not set it. */
	readonly isolated: boolean | undefined;
	/** `run_in_background:` (wins over the call's); undefined when the file does not set it. */
	readonly runInBackground: boolean | undefined;
	/** `extensions:` (or `inherit_extensions:`): all that settings load, none, or the names and paths listed. */
	readonly extensions: true | false | readonly string[];
	/** `exclude_extensions:`: names dropped from what loads. */
	readonly excluded: readonly string[];
	/** Not `enabled: false`. A disabled agent still runs when called, but loads what `general-purpose` loads. */
	readonly enabled: boolean;
}

/** A child whose configuration cannot be told here: the guard asks. */
export interface TintinwebUnknown {
	/** Why, in words, for the block reason and the dialog. */
	readonly unknown: string;
	/** The file to change, when one would help. */
	readonly file: string | null;
	/** What to change: the file's frontmatter, or the call's `resume`. */
	readonly field: "frontmatter" | "resume";
	/** The change, in one sentence. */
	readonly fix: string;
}

/**
 * What a child runs with: an agent file's fields; null for the launcher's own configuration (a default agent's,
 * or its last resort when no `general-purpose` is registered), which loads everything settings load; or what
 * cannot be told.
 */
export type TintinwebRun = TintinwebAgent | TintinwebUnknown | null;

export function isUnknownRun(run: TintinwebRun): run is TintinwebUnknown {
	return run !== null && "unknown" in run;
}

/**
 * A call with `resume` continues an earlier child's session, with the extensions that child started with; which
 * agent that was is not in the call (its `subagent_type` is not used).
 */
export const RESUMED_RUN: TintinwebUnknown = {
	unknown:
		"the call resumes an earlier @tintinweb/pi-subagents subagent, which runs with the extensions it started with: which those were cannot be told from the call",
	file: null,
	field: "resume",
	fix: "start a new subagent instead of resuming one",
};

/** Where it looks for agent files, lowest priority first: the agent dir's, then the project's two. */
export function tintinwebAgentDirectories(agentDir: string, cwd: string): string[] {
	return [join(agentDir, "agents"), join(cwd, ".agents", "agents"), join(cwd, ".pi", "agents")];
}

/** The agents @tintinweb/pi-subagents defines itself (its `DEFAULT_AGENTS`), in its order, by their exact names. */
const DEFAULT_AGENT_NAMES = ["general-purpose", "Explore", "Plan"] as const;

/** A default agent in the registry: its configuration loads everything settings load. */
const DEFAULT_AGENT = "default";

type Registered = TintinwebAgent | typeof DEFAULT_AGENT;

/**
 * Its registry as its `registerAgents` builds it at each call: the default agents (unless disabled), then every
 * readable `<name>.md` of each directory, lowest priority first, each in directory order. The key is the file's
 * exact name; a later file of the same name replaces the entry but keeps its place (a `Map`'s order), which
 * decides what a name matching several keys in another case resolves to.
 */
function tintinwebRegistry(
	agentDir: string,
	cwd: string,
	files: FileView,
	defaultsDisabled: boolean,
): Map<string, Registered> | TintinwebUnknown {
	const registry = new Map<string, Registered>();
	if (!defaultsDisabled) for (const name of DEFAULT_AGENT_NAMES) registry.set(name, DEFAULT_AGENT);
	for (const dir of tintinwebAgentDirectories(agentDir, cwd)) {
		for (const entry of files.list(dir).filter((name) => name.endsWith(".md"))) {
			const file = join(dir, entry);
			const read = files.readText(file);
			if (read.state === "unreadable" && read.tooLarge) {
				// It reads any size; an agent it reads and this check does not could load anything.
				return {
					unknown: `${file} ${read.problem}, too large for the check to read, and @tintinweb/pi-subagents reads it as an agent`,
					file,
					field: "frontmatter",
					fix: `remove ${file} or make it smaller`,
				};
			}
			// One it cannot read (a directory named `*.md`, no permission) it skips, as this does.
			if (read.state !== "text") continue;
			const frontmatter = parseTintinwebFrontmatter(read.text);
			if (frontmatter.state === "invalid") {
				// Its loading of agents throws, so every call fails; what a corrected file would load is unknown.
				return {
					unknown: `@tintinweb/pi-subagents cannot parse the frontmatter of ${file} (${frontmatter.problem}): it fails every call, and what the child would load once the file is corrected cannot be told`,
					file,
					field: "frontmatter",
					fix: `correct the YAML frontmatter of ${file}`,
				};
			}
			registry.set(basename(entry, ".md"), parseTintinwebAgent(file, frontmatter.fields));
		}
	}
	return registry;
}

/** Its `resolveKey`: the exact name, else the first key in registry order that matches it in any case. */
function resolveKey(registry: ReadonlyMap<string, Registered>, name: string): string | undefined {
	if (registry.has(name)) return name;
	const lower = name.toLowerCase();
	return [...registry.keys()].find((key) => key.toLowerCase() === lower);
}

/**
 * What a child of `type` runs with when the default agents are (or are not) disabled, as its `Agent` tool decides:
 * the registered agent the name resolves to, else `general-purpose` (resolved the same way). That agent's
 * `isolated` and `run_in_background` apply even when it is disabled (its `getAgentConfig`); what it loads is its
 * own when enabled, else the `general-purpose` entry's of that exact name when enabled, else everything (its
 * `getConfig`).
 */
function tintinwebRunWith(
	type: string,
	agentDir: string,
	cwd: string,
	files: FileView,
	defaultsDisabled: boolean,
): TintinwebRun {
	const registry = tintinwebRegistry(agentDir, cwd, files, defaultsDisabled);
	if (!(registry instanceof Map)) return registry;
	const subagentType = resolveKey(registry, type) ?? "general-purpose";
	const key = resolveKey(registry, subagentType);
	const invoked = key === undefined ? undefined : registry.get(key);
	if (invoked === undefined || invoked === DEFAULT_AGENT) return null;
	if (invoked.enabled) return invoked;
	const general = registry.get("general-purpose");
	const loads = general !== undefined && general !== DEFAULT_AGENT && general.enabled ? general : null;
	return {
		...invoked,
		// The file to change: the disabled one for its own `isolated`, else the one whose extensions load.
		file: invoked.isolated === true ? invoked.file : (loads?.file ?? invoked.file),
		extensions: loads?.extensions ?? true,
		excluded: loads?.excluded ?? [],
	};
}

/**
 * What a child of `type` started in `cwd` may run with: one configuration, or — when whether the default agents
 * are disabled cannot be read — each that either setting gives (every one must load the gate). It reads the files
 * at each call as the launcher does; its `subagents.json` it reads only when the session starts, which a check made
 * now cannot see, so the file as it is now stands for it.
 */
export function tintinwebAgentFor(
	type: string,
	agentDir: string,
	cwd: string,
	files: FileView,
): readonly TintinwebRun[] {
	const disabled = tintinwebDefaultsDisabled(agentDir, cwd, files);
	if (disabled !== null) return [tintinwebRunWith(type, agentDir, cwd, files, disabled)];
	const runs = [false, true].map((setting) => tintinwebRunWith(type, agentDir, cwd, files, setting));
	const [first, second] = runs;
	return JSON.stringify(first) === JSON.stringify(second) ? [first ?? null] : runs;
}

/** Its `loadFromDir` fields, from the YAML values (a `true`, not the text "true"). */
function parseTintinwebAgent(file: string, fields: ReadonlyMap<string, unknown>): TintinwebAgent {
	return {
		file,
		isolated: flagField(fields.get("isolated")),
		runInBackground: flagField(fields.get("run_in_background")),
		extensions: inheritField(fields.get("extensions") ?? fields.get("inherit_extensions")),
		excluded: csvField(fields.get("exclude_extensions")) ?? [],
		enabled: fields.get("enabled") !== false,
	};
}

/** Set (not null) means the YAML `true` or not; undefined when the file does not set it. */
function flagField(value: unknown): boolean | undefined {
	return value === undefined || value === null ? undefined : value === true;
}

/** Omitted, null or `true`: everything; `false`, `"none"` or empty: nothing; else the comma-separated entries. */
function inheritField(value: unknown): true | false | readonly string[] {
	if (value === undefined || value === null || value === true) return true;
	if (value === false || value === "none") return false;
	const items = csvField(value) ?? [];
	return items.length > 0 ? items : false;
}

/** Its `parseCsvField`: the value as text (a YAML list joins with commas), split on commas; none for "none". */
function csvField(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	const text = String(value).trim();
	if (text === "" || text === "none") return undefined;
	const items = text
		.split(",")
		.map((item) => item.trim())
		.filter(Boolean);
	return items.length > 0 ? items : undefined;
}
