import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { frontmatterList, parseAgentFrontmatter } from "./agent-frontmatter.ts";
import type { FileView } from "./file-view.ts";

/** A pi-subagents agent file (`<dir>/<name>.md`), the fields that decide which extensions its children load. */
export interface AgentDefinition {
	readonly file: string;
	/** Every name a call may use for it: the frontmatter name, `<package>.<name>`, and its aliases. */
	readonly names: readonly string[];
	/** `extensions:` (replaces the defaults); relative `./`/`../` entries resolved against the file. */
	readonly extensions: readonly string[] | undefined;
	/** `subagentOnlyExtensions:` (added to whatever else the child loads), resolved the same way. */
	readonly subagentOnlyExtensions: readonly string[] | undefined;
	/** `tools:`; entries that look like paths are loaded as extensions. */
	readonly tools: readonly string[] | undefined;
}

/** Parse one agent file's text the way pi-subagents does; null when it is not an agent (no name or description). */
export function parseAgentDefinition(file: string, content: string): AgentDefinition | null {
	const fields = parseAgentFrontmatter(content);
	const name = fields.get("name");
	if (!name || !fields.get("description")) return null;
	const packageName = fields.get("package")?.trim();
	const aliases = frontmatterList(fields.get("aliases") ?? fields.get("alias")) ?? [];
	return {
		file,
		names: [name, ...(packageName ? [`${packageName}.${name}`] : []), ...aliases],
		extensions: relativeToFile(frontmatterList(fields.get("extensions")), file),
		subagentOnlyExtensions: relativeToFile(frontmatterList(fields.get("subagentOnlyExtensions")), file),
		tools: frontmatterList(fields.get("tools")),
	};
}

/** Read one agent file; null when it cannot be read (pi-subagents skips it) or is not an agent. */
export function readAgentDefinition(file: string, files: FileView): AgentDefinition | null {
	const read = files.readText(file);
	return read.state === "text" ? parseAgentDefinition(file, read.text) : null;
}

function relativeToFile(entries: string[] | undefined, file: string): string[] | undefined {
	return entries?.map((entry) => {
		const trimmed = entry.trim();
		return trimmed === "." || trimmed === ".." || trimmed.startsWith("./") || trimmed.startsWith("../")
			? resolve(dirname(file), trimmed)
			: entry;
	});
}

/** Too many files to be an agent directory: the scan stops and the result is marked incomplete. */
const MAX_AGENT_FILES = 2000;
const MAX_DEPTH = 12;
/** Directory names pi-subagents does not descend into when it looks for agent files. */
const PRUNED = new Set([".git", "node_modules", ".pi", "sync-backups"]);

export interface AgentScan {
	readonly definitions: readonly AgentDefinition[];
	/** False when the scan stopped early, or a file was too large to read: an agent it did not read could load anything. */
	readonly complete: boolean;
}

/**
 * Every agent definition under `dir`, recursively, as pi-subagents discovers them: `*.md` but not `*.chain.md`,
 * not under `.agents/skills/`, and not in pruned directories — `.git`, `node_modules`, `.pi`, `sync-backups`, a
 * directory holding `.git`, or a nested project root (one with `.pi/` or `.agents/`).
 */
export function scanAgentDirectory(dir: string, files: FileView): AgentScan {
	const definitions: AgentDefinition[] = [];
	const seen = new Set<string>();
	let read = 0;
	let complete = true;
	const visit = (current: string, depth: number): void => {
		const real = files.realPath(current);
		if (real === null || seen.has(real) || !complete) return;
		seen.add(real);
		for (const name of files.list(current)) {
			if (!complete) return;
			const path = join(current, name);
			const kind = files.kind(path);
			if (kind === "dir") {
				if (pruned(path, name, files)) continue;
				if (depth >= MAX_DEPTH) complete = false;
				else visit(path, depth + 1);
				continue;
			}
			if (
				kind !== "file" ||
				!name.endsWith(".md") ||
				name.endsWith(".chain.md") ||
				isAgentsSkill(dir, path)
			) {
				continue;
			}
			if (++read > MAX_AGENT_FILES) {
				complete = false;
				return;
			}
			const text = files.readText(path);
			if (text.state === "unreadable" && text.tooLarge) complete = false;
			const definition = text.state === "text" ? parseAgentDefinition(path, text.text) : null;
			if (definition) definitions.push(definition);
		}
	};
	if (files.kind(dir) === "dir") visit(dir, 0);
	return { definitions, complete };
}

function pruned(dir: string, name: string, files: FileView): boolean {
	if (PRUNED.has(name) || files.kind(join(dir, ".git")) !== null) return true;
	return files.kind(join(dir, ".pi")) === "dir" || files.kind(join(dir, ".agents")) === "dir";
}

/** Skills under `.agents/skills/` are not agents (the scanned directory itself may be the `.agents`). */
function isAgentsSkill(root: string, file: string): boolean {
	const parts = relative(root, file)
		.split(sep)
		.map((part) => part.toLowerCase());
	if (basename(root).toLowerCase() === ".agents") parts.unshift(".agents");
	return parts.some((part, i) => part === ".agents" && parts[i + 1] === "skills");
}
