import { dirname, join, resolve } from "node:path";
import type { FileView } from "./file-view.ts";

/** A pi-subagents agent file (`<dir>/<name>.md`), the fields that decide which extensions its children load. */
export interface AgentDefinition {
	readonly file: string;
	/** Every name a call may use for it: the frontmatter name, `<package>.<name>`, and its aliases. */
	readonly names: readonly string[];
	/** `extensions:` (replaces the defaults); relative `./`/`../` entries resolved against the file. */
	readonly extensions: readonly string[] | undefined;
	/** `subagentOnlyExtensions:` (added to whatever else the child loads). */
	readonly subagentOnlyExtensions: readonly string[] | undefined;
	/** `tools:`; entries that look like paths are loaded as extensions. */
	readonly tools: readonly string[] | undefined;
}

/** Read one agent file the way pi-subagents does; null when it is not an agent (no name or description). */
export function readAgentDefinition(file: string, files: FileView): AgentDefinition | null {
	const text = files.readText(file);
	if (text === null) return null;
	const fields = frontmatter(text);
	const name = fields.get("name")?.trim();
	if (!name || !fields.get("description")?.trim()) return null;
	const packageName = fields.get("package")?.trim();
	const aliases = listField(fields.get("aliases") ?? fields.get("alias")) ?? [];
	return {
		file,
		names: [name, ...(packageName ? [`${packageName}.${name}`] : []), ...aliases],
		extensions: relativeToFile(listField(fields.get("extensions")), file),
		subagentOnlyExtensions: relativeToFile(listField(fields.get("subagentOnlyExtensions")), file),
		tools: listField(fields.get("tools")),
	};
}

/**
 * The frontmatter's top-level keys: `key: value`, or a key followed by indented lines (a block, kept as
 * lines). Like pi-subagents, no YAML beyond that: flow lists (`[a, b]`) are not lists there either.
 */
function frontmatter(text: string): Map<string, string> {
	const fields = new Map<string, string>();
	const normalized = text.replace(/\r\n/g, "\n");
	if (!normalized.startsWith("---")) return fields;
	const end = normalized.indexOf("\n---", 3);
	if (end === -1) return fields;
	let current: { key: string; lines: string[] } | null = null;
	const flush = (): void => {
		if (current && !fields.has(current.key)) fields.set(current.key, current.lines.join("\n"));
	};
	for (const line of normalized.slice(4, end).split("\n")) {
		const indented = /^\s/.test(line);
		if (current && (indented || line.trim() === "")) {
			current.lines.push(line);
			continue;
		}
		const match = /^([A-Za-z0-9_-]+):(.*)$/.exec(line);
		if (!match) continue;
		flush();
		const [, key = "", value = ""] = match;
		current = { key, lines: value.trim() === "" ? [] : [value.trim()] };
	}
	flush();
	return fields;
}

/** pi-subagents' list rule: one item per line (a leading `- ` dropped), each line split on commas. */
function listField(raw: string | undefined): string[] | undefined {
	if (raw === undefined) return undefined;
	return raw
		.split("\n")
		.flatMap((line) => {
			const value = line.trim();
			return (/^-\s+(.+)$/.exec(value)?.[1] ?? value).split(",");
		})
		.map((value) => value.trim())
		.filter((value) => value !== "");
}

function relativeToFile(entries: string[] | undefined, file: string): string[] | undefined {
	return entries?.map((entry) =>
		entry === "." || entry === ".." || entry.startsWith("./") || entry.startsWith("../")
			? resolve(dirname(file), entry)
			: entry,
	);
}

/** Too many files to be an agent directory: the scan stops and the result is marked incomplete. */
const MAX_AGENT_FILES = 2000;
const MAX_DEPTH = 8;
const PRUNED = new Set(["node_modules", ".git"]);

export interface AgentScan {
	readonly definitions: readonly AgentDefinition[];
	/** False when the scan stopped early: an agent it did not read could load anything. */
	readonly complete: boolean;
}

/** Every agent definition under `dir`, recursively, as pi-subagents discovers them (`*.md`, not `*.chain.md`). */
export function scanAgentDirectory(dir: string, files: FileView): AgentScan {
	const definitions: AgentDefinition[] = [];
	const seen = new Set<string>();
	let visited = 0;
	let complete = true;
	const visit = (current: string, depth: number, underAgents: boolean): void => {
		const real = files.realPath(current);
		if (real === null || seen.has(real) || !complete) return;
		seen.add(real);
		for (const name of [...files.list(current)].sort()) {
			const path = join(current, name);
			const kind = files.kind(path);
			if (kind === "dir") {
				// `.agents/skills` holds skills, not agents.
				if (PRUNED.has(name) || (underAgents && name === "skills")) continue;
				if (depth >= MAX_DEPTH) {
					complete = false;
					return;
				}
				visit(path, depth + 1, name === ".agents");
				continue;
			}
			if (kind !== "file" || !name.endsWith(".md") || name.endsWith(".chain.md")) continue;
			if (++visited > MAX_AGENT_FILES) {
				complete = false;
				return;
			}
			const definition = readAgentDefinition(path, files);
			if (definition) definitions.push(definition);
		}
	};
	if (files.kind(dir) === "dir") visit(dir, 0, dir.endsWith(".agents"));
	return { definitions, complete };
}
