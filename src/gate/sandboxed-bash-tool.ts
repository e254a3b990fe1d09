/**
 * The `bash` tool of a session whose sandbox is on (adr/0017): pi's own, registered at session start and run
 * through the sandbox of the session that executes the call. Each call finds its session's runner in a
 * process-wide table (copies of this extension share it), and a session no gate runs gets no bash at all.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { processWide } from "../process-wide.ts";

/** pi's bash tool, its local shell and settings, as pi hands them to the extension's entry (the copy pi runs). */
export interface BashKit {
	readonly createBashToolDefinition: typeof import("@earendil-works/pi-coding-agent").createBashToolDefinition;
	readonly createLocalBashOperations: typeof import("@earendil-works/pi-coding-agent").createLocalBashOperations;
	readonly SettingsManager: typeof import("@earendil-works/pi-coding-agent").SettingsManager;
}

export type BashExecute = ReturnType<BashKit["createBashToolDefinition"]>["execute"];

/** What runs one session's bash calls: its gate's sandboxing. */
export interface BashRunner {
	run(
		toolCallId: string,
		params: Parameters<BashExecute>[1],
		signal: AbortSignal | undefined,
		onUpdate: Parameters<BashExecute>[3],
		ctx: Parameters<BashExecute>[4],
	): ReturnType<BashExecute>;
}

function runners(): Map<string, BashRunner> {
	return processWide<Map<string, BashRunner>>("bash-runners.v1", () => new Map());
}

/** Make `runner` run the bash calls of `sessionId`; the returned function withdraws it. */
export function publishBashRunner(sessionId: string, runner: BashRunner): () => void {
	runners().set(sessionId, runner);
	return () => {
		if (runners().get(sessionId) === runner) runners().delete(sessionId);
	};
}

/**
 * The parameter schemas of the bash tools copies of this extension registered. pi's tool list hands out each
 * tool's own schema object, so it tells our tool from any other of the same name (adr/0017).
 */
function ourSchemas(): WeakSet<object> {
	return processWide<WeakSet<object>>("bash-tool-schemas.v1", () => new WeakSet());
}

/**
 * Who runs this session's bash calls, from pi's tool list: null when our tool does (or there is no bash), else
 * the file of the extension whose bash tool pi took instead (pi takes the first registered).
 */
export function foreignBashSource(tools: ReturnType<ExtensionAPI["getAllTools"]>): string | null {
	const bash = tools.find((tool) => tool.name === "bash");
	if (bash === undefined || ourSchemas().has(bash.parameters)) return null;
	return bash.sourceInfo.path;
}

/** Register pi's bash tool, each call run by the runner of the session that makes it. */
export function registerSandboxedBash(pi: ExtensionAPI, kit: BashKit): void {
	const base = kit.createBashToolDefinition(process.cwd());
	const parameters = { ...base.parameters };
	ourSchemas().add(parameters);
	pi.registerTool({
		...base,
		parameters,
		execute: (toolCallId, params, signal, onUpdate, ctx) => {
			const runner = runners().get(ctx.sessionManager.getSessionId());
			if (runner === undefined) {
				// The gate decided this call (its tool_call handler blocks when no gate runs), so this only happens
				// when the session's gate is gone: nothing may run unsandboxed behind its back.
				return Promise.reject(
					new Error(
						"pi-permission-hub: no permission gate runs this session, so bash is not run (fail closed)",
					),
				);
			}
			return runner.run(toolCallId, params, signal, onUpdate, ctx);
		},
	});
}
