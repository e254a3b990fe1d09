import { delimiter, dirname, join } from "node:path";
import type { FileView } from "./file-view.ts";

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
