import { dirname, isAbsolute, resolve } from "node:path";
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

/** What one call of a launcher's tool would start, read from its input (caller data: anything may be missing). */
export interface DelegationCall {
	/** False for calls that start no child (pi-subagents' read-only management actions). */
	readonly launches: boolean;
	/** True when the child runs while the call waits (its end is the call's end). */
	readonly foreground: boolean;
	/** The agents it names; null when it may start any agent (a workflow, a script, no agent field). */
	readonly agents: readonly string[] | null;
	/** The directories its children run in (absolute). */
	readonly cwds: readonly string[];
	/** Each child it starts that names its agent, with its task text (to tell its children apart, adr/0025). */
	readonly tasks: readonly DelegatedTask[];
}

/** One child a delegation call names: the agent, and its task as the call wrote it (null when it has none). */
export interface DelegatedTask {
	readonly agent: string;
	readonly task: string | null;
}

/** pi-subagents actions that only read or report: no child is started by them. */
const READ_ONLY_ACTIONS = new Set([
	"list",
	"get",
	"models",
	"children.list",
	"guide",
	"validate",
	"status",
	"doctor",
	"mission.list",
	"mission.show",
	"schedule.list",
	"schedule.show",
	"schedule.history",
	"lane.status",
	"watchdog.status",
	"inspector.status",
	"project.status",
	"refine.show",
]);

export function readDelegationCall(
	launcher: KnownLauncher,
	input: Readonly<Record<string, unknown>>,
	sessionCwd: string,
): DelegationCall {
	const cwdOf = (value: unknown): string =>
		typeof value === "string" && value.trim() !== ""
			? isAbsolute(value)
				? resolve(value)
				: resolve(sessionCwd, value)
			: sessionCwd;
	if (launcher.kind === "pi-subagents") {
		const action = input.action;
		return {
			launches: typeof action !== "string" || !READ_ONLY_ACTIONS.has(action),
			// Without `async: false` the launch may go to the background runner (its default).
			foreground: input.async === false && typeof action !== "string",
			agents: typeof input.agent === "string" ? [input.agent] : null,
			cwds: [cwdOf(input.cwd)],
			tasks: tasksOf([input]),
		};
	}
	// pi's example: a single `{agent, task}`, or `tasks` / `chain` lists of them, each with an optional cwd.
	const items = [input, ...listOf(input.tasks), ...listOf(input.chain)];
	const named = items.flatMap((item) => (typeof item.agent === "string" ? [item.agent] : []));
	return {
		launches: true,
		foreground: true,
		agents: named.length > 0 ? named : null,
		cwds: [...new Set(items.map((item) => cwdOf(item.cwd)))],
		tasks: tasksOf(items),
	};
}

function tasksOf(items: readonly Readonly<Record<string, unknown>>[]): DelegatedTask[] {
	return items.flatMap((item) =>
		typeof item.agent === "string"
			? [{ agent: item.agent, task: typeof item.task === "string" ? item.task : null }]
			: [],
	);
}

function listOf(value: unknown): Readonly<Record<string, unknown>>[] {
	if (!Array.isArray(value)) return [];
	return value.filter(
		(item): item is Readonly<Record<string, unknown>> => typeof item === "object" && item !== null,
	);
}
