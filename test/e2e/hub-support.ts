/**
 * Shared pieces of the hub's real-pi tests: a sandbox whose every pi (root, child, grandchild) loads the faux
 * model, the built extension and the child launcher fixture from settings; a root RPC session playing the human;
 * scripts keyed by task markers; and cleanup of the children the roots spawned (they are not the harness's own
 * processes, and a killed root leaves them behind).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { type AuditEntry, parseAuditLine } from "../../src/audit/audit-entry.ts";
import { REVIEW_NOW } from "../../src/gate/forwarded-asks.ts";
import type { DecisionSource } from "../../src/provenance/decision-source.ts";
import type { DialogAnswer, DialogPolicy, DialogRequest } from "../harness/dialog-policy.ts";
import { type FauxConversation, type FauxToolCall, writeScript } from "../harness/faux-script.ts";
import { type JsonRecord, parseRecord } from "../harness/jsonl-record.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { killAllRpc, type RpcSession, startRpc } from "../harness/rpc-session.ts";
import { summarizeRun } from "../harness/run-summary.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import { auditLines, cleanupSandboxes, gateSandbox } from "./gate-support.ts";

export const SUBAGENT_EXAMPLE = path.join(
	REPO_ROOT,
	"node_modules/@earendil-works/pi-coding-agent/examples/extensions/subagent/index.ts",
);
export const LAUNCHER_FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "child-launcher-extension.ts");
const CHILD_DIR_ENV = "PPH_CHILD_DIR";

/** Process groups of started roots and directories of launched children, for `killChildren()`. */
const groups = new Set<number>();
const childDirs = new Set<string>();

export interface HubSandbox {
	readonly sb: Sandbox;
	/** Where launched children write `<label>.jsonl`, `<label>.stderr` and `<label>.pid`. */
	readonly childDir: string;
	/** Variables every pi of the sandbox needs on top of `sb.env()`. */
	readonly env: Readonly<Record<string, string>>;
}

/**
 * A sandbox whose pi processes all load the faux model, the built extension and the launcher from settings; the
 * children launched in it are killed by `killChildren()`.
 */
export async function hubSandbox(): Promise<HubSandbox> {
	const sb = await gateSandbox();
	const childDir = path.join(sb.root, "children");
	await mkdir(childDir, { recursive: true });
	childDirs.add(childDir);
	await sb.writeSettings({
		extensions: [FAUX_MODEL_EXTENSION, EXTENSION_ENTRY, LAUNCHER_FIXTURE],
	});
	await sb.writeAgentFile(
		"agents/worker.md",
		"---\nname: worker\ndescription: test worker\nmodel: faux/faux-1\n---\nYou work.\n",
	);
	return { sb, childDir, env: { [CHILD_DIR_ENV]: childDir } };
}

// ---------------------------------------------------------------------------------------------------------------
// Scripts

export function bashCall(command: string): FauxToolCall {
	return { tool: "bash", input: { command } };
}

export interface LaunchOptions {
	readonly name?: string;
	readonly link?: "hub" | "subagent-session";
	readonly cwd?: string;
	readonly args?: readonly string[];
}

/** A `launch_child` call of the launcher fixture; `task` should carry the marker the child's conversation matches. */
export function launch(label: string, task: string, options: LaunchOptions = {}): FauxToolCall {
	return {
		tool: "launch_child",
		input: {
			label,
			task,
			...(options.name ? { name: options.name } : {}),
			...(options.link ? { link: options.link } : {}),
			...(options.cwd ? { cwd: options.cwd } : {}),
			...(options.args ? { args: [...options.args] } : {}),
		},
	};
}

/** A conversation for the session whose first message contains `marker`: the batches in order, then an echo. */
export function conversation(
	marker: string | undefined,
	...batches: readonly FauxToolCall[][]
): FauxConversation {
	const turns = [...batches.map((calls) => ({ calls: [...calls] })), { echo: true as const }];
	return marker === undefined ? { turns } : { match: marker, turns };
}

/** One batch per prompt: each batch is followed by its echo, so the next prompt plays the next batch. */
export function promptConversation(marker: string, ...batches: readonly FauxToolCall[][]): FauxConversation {
	const turns = batches.flatMap((calls) => [{ calls: [...calls] }, { echo: true as const }]);
	return { match: marker, turns };
}

/** Children's conversations (matched by marker) first, the root's (no marker) last. */
export async function writeTree(sb: Sandbox, conversations: readonly FauxConversation[]): Promise<void> {
	await writeScript(sb, { conversations: [...conversations] });
}

export const RM_VICTIM = "rm -f victim.txt";

/** A hub sandbox holding victim.txt whose model, in a session of its own, runs {@link RM_VICTIM}. */
export async function victimSandbox(): Promise<HubSandbox> {
	const hub = await hubSandbox();
	await hub.sb.writeWorkFile("victim.txt", "keep me");
	await writeTree(hub.sb, [conversation(undefined, [bashCall(RM_VICTIM)])]);
	return hub;
}

// ---------------------------------------------------------------------------------------------------------------
// The root: an RPC session with a human at its dialogs

/** A dialog forwarded from a subagent names who asks; the root's own asks do not. */
export function isForwarded(request: DialogRequest): boolean {
	return request.title.includes("\nRequested by: ");
}

/** The summary a root with a UI shows at start when asks were parked in earlier runs of its project. */
export function isParkedSummary(request: DialogRequest): boolean {
	return request.title.includes("parked in earlier runs of this project");
}

/** Answers the start-up summary of parked asks with "review now"; every other dialog goes to `then`. */
export function reviewParked(then: DialogPolicy): DialogPolicy {
	return (request) => (isParkedSummary(request) ? { select: REVIEW_NOW } : then(request));
}

/** The root's own asks are allowed once; forwarded asks go to `forwarded`. */
export function rootAllowsOwn(forwarded: DialogPolicy): DialogPolicy {
	return (request) => (isForwarded(request) ? forwarded(request) : ownAllowOnce(request));
}

function ownAllowOnce(request: DialogRequest): DialogAnswer {
	if (request.method !== "select") throw new Error(`unexpected ${request.method} dialog: ${request.title}`);
	return { select: "Allow once" };
}

/** The option whose label starts with `prefix` (choices carry the grant pattern after a colon). */
export function optionStarting(prefix: string): DialogPolicy {
	return (request) => {
		if (request.method !== "select") throw new Error(`unexpected ${request.method} dialog: ${request.title}`);
		const option = request.options.find((o) => o.startsWith(prefix));
		if (option === undefined)
			throw new Error(`no option starting with ${prefix}: ${request.options.join(" | ")}`);
		return { select: option };
	};
}

export async function startRoot(
	hub: HubSandbox,
	dialog: DialogPolicy,
	options: { readonly extensions?: readonly string[]; readonly args?: readonly string[] } = {},
): Promise<{ rpc: RpcSession; sessionId: string }> {
	const rpc = await startRpc({
		sandbox: hub.sb,
		extensions: options.extensions ?? [],
		...(options.args ? { args: options.args } : {}),
		env: hub.env,
		dialog,
		timeoutMs: 40_000,
	});
	trackGroup(rpc.pid);
	const { sessionId } = await rpc.getState();
	return { rpc, sessionId };
}

// ---------------------------------------------------------------------------------------------------------------
// Children: their output, pids and cleanup

/**
 * A root's children stay in its process group (neither launcher detaches them), so killing the group after the
 * test also takes children whose root was killed alone.
 */
function trackGroup(pid: number | undefined): void {
	if (pid !== undefined) groups.add(pid);
}

/** For afterEach: every launched child and root killed, then every sandbox removed. */
export async function cleanUpHubWorlds(): Promise<void> {
	killChildren();
	await killAllRpc();
	await cleanupSandboxes();
}

/** SIGKILL every launched child still running (by pid file) and every root's process group. */
function killChildren(): void {
	for (const dir of childDirs) {
		for (const pid of pidsIn(dir)) signalQuietly(pid);
	}
	childDirs.clear();
	for (const pgid of groups) signalQuietly(-pgid);
	groups.clear();
}

function pidsIn(dir: string): number[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((name) => name.endsWith(".pid"))
		.map((name) => Number(readFileSync(path.join(dir, name), "utf8")))
		.filter((pid) => Number.isInteger(pid) && pid > 0);
}

function signalQuietly(pid: number): void {
	try {
		process.kill(pid, "SIGKILL");
	} catch {
		// Already gone.
	}
}

/** The pid a launched child wrote, once it has. */
export function childPid(hub: HubSandbox, label: string): number | null {
	const file = path.join(hub.childDir, `${label}.pid`);
	if (!existsSync(file)) return null;
	const pid = Number(readFileSync(file, "utf8"));
	return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The records a launched child wrote to its JSONL so far. */
function childRecords(hub: HubSandbox, label: string): JsonRecord[] {
	const file = path.join(hub.childDir, `${label}.jsonl`);
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.map((line) => parseRecord(line))
		.filter((record): record is JsonRecord => record !== undefined);
}

export function childRun(
	hub: HubSandbox,
	label: string,
): ReturnType<typeof summarizeRun> & { sessionId: string } {
	const records = childRecords(hub, label);
	const header = records.find((r) => r.type === "session");
	const sessionId = typeof header?.id === "string" ? header.id : "";
	return { ...summarizeRun(records), sessionId };
}

/** The `PI_PERMISSION_HUB_*` / `PI_SUBAGENT_*` variables the launcher gave a child. */
export function childParentVariables(hub: HubSandbox, label: string): Record<string, string> {
	const value: unknown = JSON.parse(readFileSync(path.join(hub.childDir, `${label}.env.json`), "utf8"));
	if (typeof value !== "object" || value === null) throw new Error(`${label}.env.json is not an object`);
	return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, String(v)]));
}

// ---------------------------------------------------------------------------------------------------------------
// Audit and hub log

/** Every audit line so far, parsed (the caller waits for the ones it expects with `expect.poll`). */
export function auditNow(sb: Sandbox): AuditEntry[] {
	return auditLines(sb).map((line) => {
		const parsed = parseAuditLine(line);
		if (parsed === null) throw new Error(`parseAuditLine rejected an audit line: ${line}`);
		return parsed;
	});
}

/** The hub's diagnostics log (JSONL next to the audit log); a line still being appended is skipped. */
export function hubLog(sb: Sandbox): Record<string, unknown>[] {
	const file = path.join(sb.agentDir, "pi-permission-hub", "hub.log");
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.flatMap((line) => {
			try {
				const value: unknown = JSON.parse(line);
				return typeof value === "object" && value !== null ? [Object.fromEntries(Object.entries(value))] : [];
			} catch {
				return [];
			}
		});
}

/** The frames of a (possibly nested) forwarded source, outermost first, and the source that decided. */
export function unwrap(source: DecisionSource): { responders: string[]; decided: DecisionSource | null } {
	const responders: string[] = [];
	let current: DecisionSource | null = source;
	while (current?.kind === "forwarded") {
		responders.push(current.responderSessionId);
		current = current.decision;
	}
	return { responders, decided: current };
}
