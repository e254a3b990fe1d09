import type { AgentDefinition } from "./agent-definition.ts";
import type { FileView } from "./file-view.ts";
import { type GatePackage, loadsOwnGate } from "./package-manifest.ts";
import { type AgentOverride, classifySource } from "./pi-settings.ts";

/** Whose list replaced what the child loads: a settings override's, the agent file's own, or the defaults. */
export type ListFrom = "override" | "agent" | "defaults";

export interface ChildExtensions {
	readonly from: ListFrom;
	/** That list; undefined when there is none (no defaults set, or an override's `extensions: false`). */
	readonly list: readonly string[] | undefined;
	/** Everything the child loads: path-like `tools`, the list, then `subagentOnlyExtensions`. */
	readonly loaded: readonly string[];
}

/**
 * What pi-subagents gives an agent's in-process child: the paths in its `tools`, its extension list — the
 * override's `extensions`, else the agent file's own, else `defaults` (`subagents.defaultExtensions`) — and its
 * `subagentOnlyExtensions`; an override's field wins over the agent file's.
 */
export function childExtensions(
	definition: AgentDefinition | null,
	override: AgentOverride,
	defaults: readonly string[] | undefined,
): ChildExtensions {
	const [from, list]: [ListFrom, readonly string[] | undefined] =
		override.extensions !== undefined
			? ["override", override.extensions === false ? undefined : override.extensions]
			: definition?.extensions !== undefined
				? ["agent", definition.extensions]
				: ["defaults", defaults];
	const tools =
		override.tools !== undefined
			? Array.isArray(override.tools)
				? override.tools
				: []
			: (definition?.tools ?? []);
	const subagentOnly =
		override.subagentOnlyExtensions !== undefined
			? override.subagentOnlyExtensions || []
			: (definition?.subagentOnlyExtensions ?? []);
	return { from, list, loaded: [...tools.filter(isPathTool), ...(list ?? []), ...subagentOnly] };
}

/** pi-subagents loads a `tools` entry as an extension when it looks like a path. */
function isPathTool(tool: string): boolean {
	return tool.includes("/") || tool.endsWith(".ts") || tool.endsWith(".js");
}

/**
 * One entry of a child's extension list as pi resolves it (a temporary source, like `-e`): a path that does not
 * exist is skipped without a word, a relative one is resolved against the child's working directory, and an
 * `npm:` or git source is installed into a temporary directory at launch (and skipped when that fails).
 */
export type ChildExtensionEntry =
	| {
			readonly kind: "path";
			readonly written: string;
			readonly path: string;
			/** Absolute or `~/`: the same place whatever directory the child runs in. */
			readonly anchored: boolean;
			readonly present: boolean;
			/** It loads the copy of the gate it was read against (by real path), not merely a package of its name. */
			readonly loadsGate: boolean;
	  }
	| { readonly kind: "npm"; readonly written: string; readonly name: string }
	/** A git source or a built-in: where it would come from is not checked, so it never counts as the gate. */
	| { readonly kind: "other"; readonly written: string };

/** Read one entry; relative paths against `cwd`, the directory the child runs in; `gate`: the copy that counts. */
export function childExtensionEntry(
	written: string,
	cwd: string,
	homeDir: string,
	gate: GatePackage | null,
	files: FileView,
): ChildExtensionEntry {
	const source = classifySource(written, cwd, homeDir);
	if (source.kind === "npm") return { kind: "npm", written, name: source.name };
	if (source.kind !== "path") return { kind: "other", written };
	const present = files.kind(source.path) !== null;
	return {
		kind: "path",
		written,
		path: source.path,
		anchored: source.anchored,
		present,
		loadsGate: present && loadsOwnGate(source.path, gate, files),
	};
}
