import { dirname, isAbsolute, resolve } from "node:path";
import type { FileView } from "./file-view.ts";
import { owningManifest } from "./package-manifest.ts";
import { isUnknownRun, RESUMED_RUN, type TintinwebRun, tintinwebAgentFor } from "./tintinweb-agent.ts";

export const PI_SUBAGENTS_PACKAGE = "pi-subagents";
export const TINTINWEB_SUBAGENTS_PACKAGE = "@tintinweb/pi-subagents";

/**
 * How a launcher's children come to run, which decides what loads the gate in them (child-gate.ts):
 * - `listed-in-process`: inside this process, with only the extensions the launcher's settings and agent files
 *   list (pi-subagents), never the agent dir's own;
 * - `agent-dir-in-process`: inside this process, with a fresh resource loader that discovers what the agent dir
 *   and the project's `.pi/` load — the project's whether or not pi trusts it — narrowed by the agent file
 *   (@tintinweb/pi-subagents); never this process's `-e` flags;
 * - `process`: a separate `pi` process, which loads the agent dir's settings and extensions (a trusted
 *   project's too) but never this process's `-e` flags;
 * - `unknown`: a tool named like a known launcher's that does not come from it: what its children load cannot
 *   be told, so they count as ungated (the strict direction).
 */
export type ChildRun = "listed-in-process" | "agent-dir-in-process" | "process" | "unknown";

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
	/** The call itself asks for children without any extension (@tintinweb/pi-subagents' `isolated: true`). */
	readonly withoutExtensions: boolean;
	/** Each child it starts that names its agent, with its task text (to tell its children apart, adr/0025). */
	readonly tasks: readonly DelegatedTask[];
	/**
	 * What the call's @tintinweb/pi-subagents agent may run with (tintinweb-agent.ts): one configuration, or each
	 * of those it may be; read once with the call (they decide both whether the child runs in the foreground and
	 * what it loads). Empty for other launchers, and for a call that names no agent.
	 */
	readonly tintinwebRuns: readonly TintinwebRun[];
}

/** What a launcher's call reader may look up besides the call's input. */
export interface CallContext {
	/** A `cwd` the call gave, as an absolute directory (the session's when it gave none). */
	readonly cwdOf: (value: unknown) => string;
	/** What a @tintinweb/pi-subagents child of `type` in `cwd` may run with, read now. */
	readonly tintinwebRuns: (type: string, cwd: string) => readonly TintinwebRun[];
}

/** Where a call's agent files are found: pi's agent dir, read through `files`. */
export interface AgentFilesAt {
	readonly agentDir: string;
	readonly files: FileView;
}

/** One child a delegation call names: the agent, and its task as the call wrote it (null when it has none). */
export interface DelegatedTask {
	readonly agent: string;
	readonly task: string | null;
}

/** One row of the table of known launchers: adding a launcher is adding a row. */
export interface LauncherDescription {
	readonly kind: LauncherKind;
	/** The launcher in words, for dialogs, warnings and the tier's reason. */
	readonly label: string;
	/** The tool it registers. */
	readonly tool: string;
	/** The package the tool must come from; null: any tool of that name (a catch-all row, matched last). */
	readonly packageName: string | null;
	/** `sourceInfo.path` of the tool when the package registers it from an inline factory (no file to look up). */
	readonly inlineSource: RegExp | null;
	readonly children: ChildRun;
	readonly readCall: (input: Readonly<Record<string, unknown>>, context: CallContext) => DelegationCall;
}

export type LauncherKind = "pi-subagents" | "tintinweb-pi-subagents" | "process-subagent" | "unknown-agent";

/** A launcher found in this session: its row, and where its package is (null: not known, or no package). */
export interface KnownLauncher {
	readonly kind: LauncherKind;
	/** Where its built-in agents are; null when the tool came from an inline extension or no package. */
	readonly packageRoot: string | null;
	/** `sourceInfo.path` of its tool. */
	readonly source: string | null;
}

export interface ToolSource {
	readonly name: string;
	/** `sourceInfo.path` of the tool in `pi.getAllTools()`. */
	readonly sourcePath: string | null;
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

/** pi-subagents (0.67): `{agent, task, cwd, async, action, …}`; without `async: false` it may run in the background. */
function readPiSubagentsCall(
	input: Readonly<Record<string, unknown>>,
	{ cwdOf }: CallContext,
): DelegationCall {
	const action = input.action;
	return {
		launches: typeof action !== "string" || !READ_ONLY_ACTIONS.has(action),
		foreground: input.async === false && typeof action !== "string",
		agents: typeof input.agent === "string" ? [input.agent] : null,
		cwds: [cwdOf(input.cwd)],
		withoutExtensions: false,
		tasks: tasksOf([input]),
		tintinwebRuns: [],
	};
}

/**
 * @tintinweb/pi-subagents (0.14): `Agent({subagent_type, prompt, run_in_background, isolated, schedule, …})`; its
 * children run in this session's directory (a worktree's config is still read from there). An agent file's
 * `run_in_background` and `isolated` win over the call's (its `resolveAgentInvocationConfig`: the file's value,
 * else the call's, else false); child-gate.ts reads the file's `isolated` and what it loads. A scheduled call
 * always runs later, in the background. A call with `resume` continues an earlier child, whatever it names.
 */
function readTintinwebCall(input: Readonly<Record<string, unknown>>, context: CallContext): DelegationCall {
	const type = typeof input.subagent_type === "string" ? input.subagent_type : null;
	const cwd = context.cwdOf(undefined);
	// Its `resume` (any non-empty text) continues that child, in the foreground, before anything else is read.
	const resumes = typeof input.resume === "string" && input.resume !== "";
	const runs = resumes ? [RESUMED_RUN] : type === null ? [] : context.tintinwebRuns(type, cwd);
	// In the background when any configuration it may run with puts it there: the watch then expects no child.
	const background =
		runs.length === 0 || resumes
			? !resumes && input.run_in_background === true
			: runs.some(
					(run) =>
						(run === null || isUnknownRun(run) ? undefined : run.runInBackground) ??
						input.run_in_background === true,
				);
	return {
		launches: true,
		foreground: !background && input.schedule === undefined,
		agents: type === null ? null : [type],
		cwds: [cwd],
		withoutExtensions: input.isolated === true,
		tasks:
			type === null ? [] : [{ agent: type, task: typeof input.prompt === "string" ? input.prompt : null }],
		tintinwebRuns: runs,
	};
}

/** pi's example: a single `{agent, task}`, or `tasks` / `chain` lists of them, each with an optional cwd. */
function readProcessCall(input: Readonly<Record<string, unknown>>, { cwdOf }: CallContext): DelegationCall {
	const items = [input, ...listOf(input.tasks), ...listOf(input.chain)];
	const named = items.flatMap((item) => (typeof item.agent === "string" ? [item.agent] : []));
	return {
		launches: true,
		foreground: true,
		agents: named.length > 0 ? named : null,
		cwds: [...new Set(items.map((item) => cwdOf(item.cwd)))],
		withoutExtensions: false,
		tasks: tasksOf(items),
		tintinwebRuns: [],
	};
}

/**
 * A launcher nobody knows: it may start anything, anywhere. Each call starts children (foreground, so the watch
 * reports one that announced no gate) in the session's directory.
 */
function readUnknownCall(_input: Readonly<Record<string, unknown>>, { cwdOf }: CallContext): DelegationCall {
	return {
		launches: true,
		foreground: true,
		agents: null,
		cwds: [cwdOf(undefined)],
		withoutExtensions: false,
		tasks: [],
		tintinwebRuns: [],
	};
}

/** The known launchers, most specific first: a row with a package before the catch-all for its tool name. */
export const KNOWN_LAUNCHERS: readonly LauncherDescription[] = [
	{
		kind: "pi-subagents",
		label: "pi-subagents",
		tool: "subagent",
		packageName: PI_SUBAGENTS_PACKAGE,
		// pi names an extension given as a factory `<inline:<name>>`; pi-subagents names its child hooks `pi-subagents:…`.
		inlineSource: /^<inline:pi-subagents:[^>]*>$/,
		children: "listed-in-process",
		readCall: readPiSubagentsCall,
	},
	{
		kind: "tintinweb-pi-subagents",
		label: "@tintinweb/pi-subagents",
		tool: "Agent",
		packageName: TINTINWEB_SUBAGENTS_PACKAGE,
		inlineSource: null,
		children: "agent-dir-in-process",
		readCall: readTintinwebCall,
	},
	{
		kind: "process-subagent",
		label: "a launcher that starts pi processes",
		tool: "subagent",
		packageName: null,
		inlineSource: null,
		children: "process",
		readCall: readProcessCall,
	},
	{
		// An `Agent` tool from another package (a fork, a copy under another name, one whose source pi does not
		// know) is named to delegate like @tintinweb's, but nothing says what its children load.
		kind: "unknown-agent",
		label: "an Agent tool that is not @tintinweb/pi-subagents'",
		tool: "Agent",
		packageName: null,
		inlineSource: null,
		children: "unknown",
		readCall: readUnknownCall,
	},
];

export function launcherDescription(kind: LauncherKind): LauncherDescription {
	const row = KNOWN_LAUNCHERS.find((launcher) => launcher.kind === kind);
	if (row === undefined) throw new Error(`no launcher ${kind}`);
	return row;
}

/** The tool names some known launcher registers: any other tool is never a delegation. */
export const LAUNCHER_TOOLS: ReadonlySet<string> = new Set(KNOWN_LAUNCHERS.map((launcher) => launcher.tool));

export function identifyLauncher(tool: ToolSource, files: FileView): KnownLauncher | null {
	const rows = KNOWN_LAUNCHERS.filter((launcher) => launcher.tool === tool.name);
	if (rows.length === 0) return null;
	const { sourcePath } = tool;
	const manifest = sourcePath
		? owningManifest(dirname(files.realPath(sourcePath) ?? sourcePath), files)
		: null;
	for (const row of rows) {
		if (row.packageName === null) return { kind: row.kind, packageRoot: null, source: sourcePath };
		if (sourcePath && row.inlineSource?.test(sourcePath))
			return { kind: row.kind, packageRoot: null, source: sourcePath };
		if (manifest?.name === row.packageName)
			return { kind: row.kind, packageRoot: manifest.root, source: sourcePath };
	}
	return null;
}

export function readDelegationCall(
	launcher: KnownLauncher,
	input: Readonly<Record<string, unknown>>,
	sessionCwd: string,
	agentFiles: AgentFilesAt,
): DelegationCall {
	const cwdOf = (value: unknown): string =>
		typeof value === "string" && value.trim() !== ""
			? isAbsolute(value)
				? resolve(value)
				: resolve(sessionCwd, value)
			: sessionCwd;
	return launcherDescription(launcher.kind).readCall(input, {
		cwdOf,
		tintinwebRuns: (type, cwd) => tintinwebAgentFor(type, agentFiles.agentDir, cwd, agentFiles.files),
	});
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
