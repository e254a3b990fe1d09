import { dirname, join } from "node:path";
import type { FileView } from "./file-view.ts";

/** `dir` and every directory above it, nearest first. */
function selfAndAncestors(dir: string): string[] {
	const dirs = [dir];
	for (let parent = dirname(dir); parent !== dirs.at(-1); parent = dirname(parent)) dirs.push(parent);
	return dirs;
}

/**
 * Every `.pi/settings.json` at or above the project directory. pi-subagents reads the one of the project root it
 * settles on (the nearest directory with `.pi/` or `.agents/`, or further up with `projectRootResolution`), without
 * asking whether pi trusts the project; the doctor checks all of them rather than guess which one that is.
 */
export function projectSettingsFiles(projectDir: string): string[] {
	return selfAndAncestors(projectDir).map((dir) => join(dir, ".pi", "settings.json"));
}

/** The project agent directories (`.agents/`, `.pi/agents/`) of every project root candidate at or above it. */
export function projectAgentDirs(projectDir: string, view: FileView): string[] {
	return selfAndAncestors(projectDir).flatMap((dir) =>
		[join(dir, ".agents"), join(dir, ".pi", "agents")].filter((d) => view.kind(d) === "directory"),
	);
}
