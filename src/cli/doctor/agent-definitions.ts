import { dirname, join, relative, resolve, sep } from "node:path";
import { frontmatterList, parseAgentFrontmatter } from "./agent-frontmatter.ts";
import type { FileView } from "./file-view.ts";

export type AgentScope = "user" | "project" | "builtin";

/** An agent definition file of pi-subagents, with the extension lists its children are started with. */
export interface AgentDefinition {
	readonly file: string;
	readonly name: string;
	readonly scope: AgentScope;
	/**
	 * Its own `extensions:` (`./` and `../` entries resolved against the file, as pi-subagents does); undefined when
	 * it has none and the settings' `subagents.defaultExtensions` apply instead.
	 */
	readonly extensions: readonly string[] | undefined;
	/** Loaded in addition whatever `extensions` is: `subagentOnlyExtensions:` and path-like `tools:` entries. */
	readonly additional: readonly string[];
}

/** Directory names pi-subagents does not descend into when it looks for agent files. */
const PRUNED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules", ".pi", "sync-backups"]);
/** A bound on what a scan reads: agent dirs hold tens of files, not thousands. */
const MAX_AGENT_FILES = 2_000;
const MAX_DEPTH = 12;

/** Every agent file under `dir` (recursively, by pi-subagents' rules: `*.md` except `*.chain.md`). */
export function agentDefinitionsIn(dir: string, scope: AgentScope, view: FileView): AgentDefinition[] {
	return agentFiles(dir, view).flatMap((file) => {
		let content: string | null;
		try {
			content = view.readText(file);
		} catch {
			// pi-subagents skips a file it cannot read; so does the doctor.
			return [];
		}
		const definition = content === null ? null : parseDefinition(file, content, scope);
		return definition === null ? [] : [definition];
	});
}

function parseDefinition(file: string, content: string, scope: AgentScope): AgentDefinition | null {
	const fields = parseAgentFrontmatter(content);
	const name = fields?.get("name");
	if (fields === null || name === undefined || name === "" || !fields.get("description")) return null;
	const anchor = (entries: string[] | undefined): string[] | undefined =>
		entries?.map((entry) => (/^\.\.?(\/|$)/.test(entry) ? resolve(dirname(file), entry) : entry));
	const toolPaths = (frontmatterList(fields.get("tools")) ?? []).filter(
		(tool) => tool.includes("/") || tool.endsWith(".ts") || tool.endsWith(".js"),
	);
	return {
		file,
		name,
		scope,
		extensions: anchor(frontmatterList(fields.get("extensions"))),
		additional: [...(anchor(frontmatterList(fields.get("subagentOnlyExtensions"))) ?? []), ...toolPaths],
	};
}

function agentFiles(root: string, view: FileView): string[] {
	if (view.kind(root) !== "directory") return [];
	const found: string[] = [];
	const seen = new Set<string>();
	const visit = (dir: string, depth: number): void => {
		const real = view.realPath(dir);
		if (seen.has(real) || depth > MAX_DEPTH) return;
		seen.add(real);
		for (const entry of view.list(dir)) {
			if (found.length >= MAX_AGENT_FILES) return;
			const path = join(dir, entry.name);
			if (entry.kind === "directory") {
				const nested = view.kind(join(path, ".git")) !== "missing";
				if (!PRUNED_DIRS.has(entry.name) && !nested) visit(path, depth + 1);
			} else if (
				entry.kind === "file" &&
				entry.name.endsWith(".md") &&
				!entry.name.endsWith(".chain.md") &&
				!isAgentsSkillPath(root, path)
			) {
				found.push(path);
			}
		}
	};
	visit(root, 0);
	return found;
}

/** Skills under `.agents/skills/` are not agents. */
function isAgentsSkillPath(root: string, file: string): boolean {
	const parts = relative(root, file).split(sep);
	if (root.endsWith(`${sep}.agents`)) parts.unshift(".agents");
	return parts.some(
		(part, i) => part.toLowerCase() === ".agents" && parts[i + 1]?.toLowerCase() === "skills",
	);
}
