import { basename, delimiter, dirname, join, relative, resolve, sep } from "node:path";
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

/**
 * The frontmatter of a pi-subagents agent file, read by pi-subagents' rules (no YAML beyond them): `key: value`
 * lines, a quoted value unquoted, and a key with an empty value (or `|`, `|-`, `>`, `>-`) taking the
 * more-indented lines after it, their common indentation removed; `>` blocks folded. A key given twice keeps
 * the last value. Flow lists (`[a, b]`) are not lists there either.
 */
export function parseAgentFrontmatter(content: string): ReadonlyMap<string, string> {
	const fields = new Map<string, string>();
	const text = content.replace(/\r\n/g, "\n");
	if (!text.startsWith("---")) return fields;
	const end = text.indexOf("\n---", 3);
	if (end < 0) return fields;
	let block: { key: string; indent: number; scalar: "folded" | "literal" | null; lines: string[] } | null =
		null;
	const flush = (): void => {
		if (block === null) return;
		const stripped = dedent(block.lines);
		fields.set(block.key, block.scalar === "folded" ? fold(stripped) : stripped);
		block = null;
	};
	for (const line of text.slice(4, end).split("\n")) {
		const indent = line.search(/\S|$/);
		if (block !== null && (indent > block.indent || (block.scalar !== null && line.trim() === ""))) {
			block.lines.push(line);
			continue;
		}
		flush();
		const match = /^([\w-]+):\s*(.*)$/.exec(line);
		if (!match?.[1] || match[2] === undefined) continue;
		const raw = match[2].trim();
		const quoted = /^(".*"|'.*')$/.test(raw);
		const value = quoted ? raw.slice(1, -1) : raw;
		const scalar = quoted
			? null
			: raw === ">" || raw === ">-"
				? "folded"
				: raw === "|" || raw === "|-"
					? "literal"
					: null;
		if (value === "" || scalar !== null) block = { key: match[1], indent, scalar, lines: [] };
		else fields.set(match[1], value);
	}
	flush();
	return fields;
}

/** The block's lines without the indentation of its first indented line (removed wherever a line starts with it). */
function dedent(lines: readonly string[]): string {
	const raw = lines.join("\n");
	const prefix = /^[ \t]+(?=\S)/m.exec(raw)?.[0] ?? "";
	if (prefix === "") return raw;
	return raw
		.split("\n")
		.map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
		.join("\n")
		.replace(/^\n/, "");
}

/** A folded (`>`) block: lines joined by spaces, more-indented lines and blank-line breaks kept as line breaks. */
function fold(block: string): string {
	let folded = "";
	let started = false;
	let previousIndented = false;
	let blanks = 0;
	for (const line of block.split("\n")) {
		const current = line.trimEnd();
		if (current.trim() === "") {
			if (started) blanks++;
			continue;
		}
		const indented = current.length > current.trimStart().length;
		if (started) {
			const extra = previousIndented || indented ? 1 : 0;
			folded += blanks > 0 ? "\n".repeat(blanks + extra) : extra === 1 ? "\n" : " ";
		}
		folded += current;
		started = true;
		previousIndented = indented;
		blanks = 0;
	}
	return folded.trim();
}

/** A frontmatter list: one item per line (a leading `- ` dropped), each line split on commas (pi-subagents' rule). */
export function frontmatterList(raw: string | undefined): string[] | undefined {
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

/**
 * The user agent directories pi-subagents reads, in its order: `PI_SUBAGENT_EXTRA_AGENT_DIRS`, then
 * `<agent dir>/agents`, then `~/.agents`.
 */
export function userAgentDirectories(
	agentDir: string,
	homeDir: string,
	env: Readonly<Record<string, string | undefined>>,
): string[] {
	return [
		...(env.PI_SUBAGENT_EXTRA_AGENT_DIRS ?? "").split(delimiter).filter((dir) => dir.trim() !== ""),
		join(agentDir, "agents"),
		join(homeDir, ".agents"),
	];
}

/**
 * The directories from `cwd` upward that pi-subagents may take for the project root (they hold `.pi/` or
 * `.agents/`), nearest first. Which one it settles on depends on settings not repeated here, so a check takes
 * every one of them into account.
 */
export function projectRootCandidates(cwd: string, files: FileView): string[] {
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

/** A project root's settings file: pi-subagents reads it whether or not pi trusts the project. */
export function projectSettingsFile(root: string): string {
	return join(root, ".pi", "settings.json");
}

/** A project root's agent directories: `.agents/` and `.pi/agents/`. */
export function projectAgentDirectories(root: string): string[] {
	return [join(root, ".agents"), join(root, ".pi", "agents")];
}

/** pi-subagents' own (builtin) agents, in its package directory. */
export function builtinAgentDirectory(packageRoot: string): string {
	return join(packageRoot, "agents");
}
