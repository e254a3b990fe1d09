import { join } from "node:path";
import { frontmatterList, parseAgentFrontmatter } from "./agent-definition.ts";
import type { FileView } from "./file-view.ts";

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

/** Where it looks for agent files, lowest priority first: the agent dir's, then the project's two. */
export function tintinwebAgentDirectories(agentDir: string, cwd: string): string[] {
	return [join(agentDir, "agents"), join(cwd, ".agents", "agents"), join(cwd, ".pi", "agents")];
}

/**
 * The file that defines `type` for a child started in `cwd`, read by its rules: the highest-priority directory
 * with `<type>.md` (the exact name, else any case); null when none does. An unreadable file counts as none, as it
 * skips it.
 */
export function tintinwebAgentAt(
	type: string,
	agentDir: string,
	cwd: string,
	files: FileView,
): TintinwebAgent | null {
	for (const dir of tintinwebAgentDirectories(agentDir, cwd).reverse()) {
		const names = files.list(dir).filter((name) => name.endsWith(".md"));
		const name =
			names.find((n) => n === `${type}.md`) ??
			names.find((n) => n.toLowerCase() === `${type.toLowerCase()}.md`);
		if (name === undefined) continue;
		const file = join(dir, name);
		const read = files.readText(file);
		if (read.state !== "text") continue;
		return parseTintinwebAgent(file, read.text);
	}
	return null;
}

/** The agent types @tintinweb/pi-subagents defines itself (its `DEFAULT_AGENT_NAMES`), lower-cased. */
const BUILT_IN_TYPES: ReadonlySet<string> = new Set(["general-purpose", "explore", "plan"]);

/**
 * What a child of `type` runs with: the type's own file; else, for a type neither a file nor the launcher defines,
 * `general-purpose`'s, which it runs instead (its `resolveType(…) ?? "general-purpose"`) — a project's file may
 * redefine that one too, with `isolated: true` say. A disabled agent keeps its `isolated` and `run_in_background`
 * (its `getAgentConfig`) but loads what an enabled `general-purpose` loads (its `getConfig`). Null: the built-in
 * configuration, which loads everything settings load.
 */
export function tintinwebAgentFor(
	type: string,
	agentDir: string,
	cwd: string,
	files: FileView,
): TintinwebAgent | null {
	const own = tintinwebAgentAt(type, agentDir, cwd, files);
	if (own === null && BUILT_IN_TYPES.has(type.toLowerCase())) return null;
	const general = tintinwebAgentAt("general-purpose", agentDir, cwd, files);
	const invoked = own ?? general;
	if (invoked === null || invoked.enabled) return invoked;
	const loads = general?.enabled === true ? general : null;
	return {
		...invoked,
		// The file to change: the disabled one for its own `isolated`, else the one whose extensions load.
		file: invoked.isolated === true ? invoked.file : (loads?.file ?? invoked.file),
		extensions: loads?.extensions ?? true,
		excluded: loads?.excluded ?? [],
	};
}

function parseTintinwebAgent(file: string, content: string): TintinwebAgent {
	const fields = parseAgentFrontmatter(content);
	return {
		file,
		isolated: flagField(fields.get("isolated")),
		runInBackground: flagField(fields.get("run_in_background")),
		extensions: inheritField(fields.get("extensions") ?? fields.get("inherit_extensions")),
		excluded: listField(fields.get("exclude_extensions")),
		enabled: fields.get("enabled") !== "false",
	};
}

/** A yes/no field as the launcher reads it: set means `true` or not; undefined when the file does not set it. */
function flagField(raw: string | undefined): boolean | undefined {
	return raw === undefined ? undefined : raw === "true";
}

/** Omitted or `true`: everything; `false`, `none` or empty: nothing; else the listed entries. */
function inheritField(raw: string | undefined): true | false | readonly string[] {
	if (raw === undefined || raw === "true") return true;
	if (raw === "false") return false;
	const items = listField(raw);
	return items.length > 0 ? items : false;
}

function listField(raw: string | undefined): string[] {
	if (raw === undefined || raw.trim() === "none") return [];
	return frontmatterList(raw) ?? [];
}
