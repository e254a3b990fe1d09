import { dirname } from "node:path";
import type { FileView } from "./file-view.ts";
import { owningManifest } from "./package-manifest.ts";

export const PI_SUBAGENTS_PACKAGE = "pi-subagents";

/**
 * A subagent launcher whose children we know how to check:
 * - `pi-subagents`: its `subagent` tool runs foreground children inside this process, and they load only the
 *   extensions its settings and agent files name (never the agent dir's own extensions). A child allowed to
 *   delegate again gets the tool from an inline extension, so its package directory is not known there;
 * - `process-subagent`: any other tool named `subagent` (pi's example extension and its copies) starts a `pi`
 *   process, which loads the agent dir's settings and extensions but never this process's `-e` flags.
 */
export type KnownLauncher =
	/** `packageRoot`: where its built-in agents are; null when the tool came from its inline child extension. */
	| { readonly kind: "pi-subagents"; readonly packageRoot: string | null }
	| { readonly kind: "process-subagent"; readonly source: string | null };

export interface ToolSource {
	readonly name: string;
	/** `sourceInfo.path` of the tool in `pi.getAllTools()`. */
	readonly sourcePath: string | null;
}

/** pi names an extension given as a factory `<inline:<name>>`; pi-subagents names its child hooks `pi-subagents:…`. */
const PI_SUBAGENTS_INLINE = /^<inline:pi-subagents:[^>]*>$/;

export function identifyLauncher(tool: ToolSource, files: FileView): KnownLauncher | null {
	if (tool.name !== "subagent") return null;
	if (tool.sourcePath && PI_SUBAGENTS_INLINE.test(tool.sourcePath))
		return { kind: "pi-subagents", packageRoot: null };
	if (tool.sourcePath) {
		const real = files.realPath(tool.sourcePath) ?? tool.sourcePath;
		const manifest = owningManifest(dirname(real), files);
		if (manifest?.name === PI_SUBAGENTS_PACKAGE) return { kind: "pi-subagents", packageRoot: manifest.root };
	}
	return { kind: "process-subagent", source: tool.sourcePath };
}
