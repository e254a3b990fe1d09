/**
 * Shared pieces of the real-pi tests with subagent launchers. pi-subagents keeps child sessions, run state and
 * supervisor channels under TMPDIR, which is the sandbox's own (see `createSandbox`).
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { AuditEntry } from "../../src/audit/audit-entry.ts";
import type { DialogPolicy, DialogRequest } from "../harness/dialog-policy.ts";
import type { FauxConversation, FauxToolCall } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { type RpcSession, startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import { gateSandbox } from "./gate-support.ts";
import { auditNow } from "./hub-support.ts";

export const PI_SUBAGENTS_PACKAGE = path.join(REPO_ROOT, "node_modules", "pi-subagents");
/** What the fix tells a user to add: this package's directory, canonical. */
export const GATE_DIR = realpathSync(REPO_ROOT);
export const RM = "rm -f victim.txt";
export const GUARD_WHY = "the subagent would run without permission checks";
export const GUARD_STEP = "pi-permission-hub:delegation-guard";
/** A cold jiti cache means transpiling pi-subagents (15–20 s) before the first call. */
export const SUBAGENT_TEST_TIMEOUT = 180_000;
const RUN_TIMEOUT = 90_000;

export interface SubagentWorld {
	readonly sb: Sandbox;
	readonly settingsFile: string;
}

/** A sandbox with victim.txt in the work dir and the given agent-dir settings. */
export async function subagentWorld(settings: Record<string, unknown>): Promise<SubagentWorld> {
	const sb = await gateSandbox();
	await sb.writeWorkFile("victim.txt", "keep me");
	await sb.writeSettings(settings);
	return { sb, settingsFile: path.join(sb.agentDir, "settings.json") };
}

/** pi-subagents from the repo's node_modules, and the extensions its children load (`defaultExtensions`). */
export function piSubagentsSettings(childExtensions: readonly string[]): Record<string, unknown> {
	return { packages: [PI_SUBAGENTS_PACKAGE], subagents: { defaultExtensions: [...childExtensions] } };
}

export const GATED_CHILDREN = [FAUX_MODEL_EXTENSION, EXTENSION_ENTRY];
/** Children still need the scripted model; they lack only the gate. */
export const UNGATED_CHILDREN = [FAUX_MODEL_EXTENSION];

/** A foreground pi-subagents call with a fresh context (the child's first message is `Task: <task>`). */
export function delegate(agent: string, task: string): FauxToolCall {
	return { tool: "subagent", input: { agent, task, context: "fresh", async: false } };
}

export function conversationOf(
	marker: string | undefined,
	...batches: readonly FauxToolCall[][]
): FauxConversation {
	const turns = [...batches.map((calls) => ({ calls: [...calls] })), { echo: true as const }];
	return marker === undefined ? { turns } : { match: marker, turns };
}

export async function startRoot(
	world: SubagentWorld,
	dialog: DialogPolicy,
	extensions: readonly string[] = [EXTENSION_ENTRY],
): Promise<{ rpc: RpcSession; rootId: string }> {
	const rpc = await startRpc({
		sandbox: world.sb,
		extensions,
		dialog,
		timeoutMs: RUN_TIMEOUT,
	});
	const { sessionId } = await rpc.getState({ timeoutMs: RUN_TIMEOUT });
	return { rpc, rootId: sessionId };
}

export function victimExists(world: SubagentWorld): boolean {
	return existsSync(world.sb.workPath("victim.txt"));
}

/** The dialog's text (RPC puts the body lines in the select title). */
export function dialogText(request: DialogRequest): string {
	return request.title;
}

/** Answer by option prefix; the guard's dialog and forwarded asks are told apart by their text. */
export function answer(pick: (request: DialogRequest) => string): DialogPolicy {
	return (request) => {
		if (request.method !== "select") throw new Error(`unexpected ${request.method} dialog: ${request.title}`);
		const prefix = pick(request);
		const option = request.options.find((o) => o.startsWith(prefix));
		if (option === undefined)
			throw new Error(`no option starting with ${prefix}: ${request.options.join(" | ")}`);
		return { select: option };
	};
}

export function isGuardAsk(request: DialogRequest): boolean {
	return dialogText(request).includes(GUARD_WHY);
}

/** Audit lines once `done` says they are all there (the writer appends a moment after each decision). */
export async function auditWhen(
	world: SubagentWorld,
	done: (entries: readonly AuditEntry[]) => boolean,
): Promise<AuditEntry[]> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const entries = auditNow(world.sb);
		if (done(entries)) return entries;
		if (Date.now() > deadline) {
			throw new Error(
				`audit incomplete: ${JSON.stringify(entries.map((e) => [e.sessionId, e.event, e.tool]))}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

const announcementSchema = z.looseObject({
	sessionId: z.string(),
	agent: z.string(),
	path: z.array(z.string()),
	inProcess: z.boolean(),
	endedAt: z.string().optional(),
});

/** The children that announced themselves in a session's inbox. */
export function announcements(world: SubagentWorld, sessionId: string): z.infer<typeof announcementSchema>[] {
	const dir = path.join(
		world.sb.agentDir,
		"pi-permission-hub",
		"inbox",
		encodeURIComponent(sessionId),
		"children",
	);
	if (!existsSync(dir)) return [];
	return readdirSync(dir).map((name) =>
		announcementSchema.parse(JSON.parse(readFileSync(path.join(dir, name), "utf8"))),
	);
}

/** The warnings about subagents (the sandbox's own notice is left out: `sandboxNoticesOf`). */
export function warningsOf(rpc: RpcSession): string[] {
	return rpc.notifications
		.filter((n) => n.notifyType === "warning" && !n.message.startsWith(SANDBOX_NOTICE))
		.map((n) => n.message);
}

const SANDBOX_NOTICE = "pi-permission-hub: the sandbox is on, but";

export function sandboxNoticesOf(rpc: RpcSession): string[] {
	return rpc.notifications.filter((n) => n.message.startsWith(SANDBOX_NOTICE)).map((n) => n.message);
}
