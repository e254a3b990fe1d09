/**
 * Drives a real `pi --mode rpc` process: sends commands, records every stdout record, plays the human at
 * extension dialogs through a DialogPolicy, and guards every wait with a watchdog that kills a hung pi and fails
 * with enough context (recent records, unanswered dialogs, stderr) to see why it hung.
 */
import type { Writable } from "node:stream";
import { z } from "zod";
import {
	DIALOG_METHODS,
	type DialogAnswer,
	type DialogPolicy,
	type DialogRequest,
	describeDialog,
	dialogRequestSchema,
	uiResponseFor,
} from "./dialog-policy.ts";
import { type JsonRecord, parseRecord } from "./jsonl-record.ts";
import {
	createLineSplitter,
	killProcessTree,
	type PiChild,
	type PiLaunchOptions,
	spawnPi,
	tail,
} from "./pi-process.ts";
import { summarizeRun, type ToolResultSummary } from "./run-summary.ts";

export type RpcRecord = JsonRecord;
export type { ToolResultSummary };

export interface RpcCommand {
	readonly type: string;
	readonly id?: string;
	readonly [key: string]: unknown;
}

export interface RpcStartOptions extends PiLaunchOptions {
	readonly dialog: DialogPolicy;
	/** Deadline of each awaited operation unless the call gives its own. Default 30 s. */
	readonly timeoutMs?: number;
}

export interface DialogExchange {
	readonly request: DialogRequest;
	/** Index of the request in `events`. */
	readonly recordIndex: number;
	/** `undefined` while the policy is deciding; `{ never: true }` when it chose not to answer. */
	readonly answer: DialogAnswer | undefined;
}

export interface Notification {
	readonly message: string;
	readonly notifyType: "info" | "warning" | "error" | undefined;
}

export interface PromptRun {
	/** `started`, `queued` or `handled` (an extension command or input handler consumed it; no run happened). */
	readonly disposition: string;
	/** The records from sending the prompt up to and including its `agent_settled`. */
	readonly records: readonly RpcRecord[];
	readonly toolResults: readonly ToolResultSummary[];
	readonly dialogs: readonly DialogExchange[];
	/** Text of the last assistant message that had text. */
	readonly finalText: string | undefined;
	readonly aborted: boolean;
}

export type UserBashOutcome =
	| {
			readonly success: true;
			readonly output: string;
			readonly exitCode: number | undefined;
			readonly cancelled: boolean;
			readonly truncated: boolean;
	  }
	| { readonly success: false; readonly error: string };

export interface RpcState {
	readonly sessionId: string;
	readonly sessionFile: string | undefined;
	readonly isStreaming: boolean;
	readonly messageCount: number;
}

export interface ExitInfo {
	readonly code: number | null;
	readonly signal: NodeJS.Signals | null;
}

const responseSchema = z.looseObject({
	type: z.literal("response"),
	id: z.string().optional(),
	command: z.string(),
	success: z.boolean(),
	data: z.unknown().optional(),
	error: z.string().optional(),
});
export type RpcResponse = z.infer<typeof responseSchema>;

const stateSchema = z.looseObject({
	sessionId: z.string(),
	sessionFile: z.string().optional(),
	isStreaming: z.boolean(),
	messageCount: z.number(),
});
const promptDataSchema = z.looseObject({ disposition: z.string() });
const newSessionDataSchema = z.looseObject({ cancelled: z.boolean() });
const bashDataSchema = z.looseObject({
	output: z.string(),
	exitCode: z.number().nullable().optional(),
	cancelled: z.boolean(),
	truncated: z.boolean(),
});
const notifySchema = z.looseObject({
	method: z.literal("notify"),
	message: z.string(),
	notifyType: z.enum(["info", "warning", "error"]).optional(),
});
const statusSchema = z.looseObject({
	method: z.literal("setStatus"),
	statusKey: z.string(),
	statusText: z.string().optional(),
});

const DEFAULT_TIMEOUT_MS = 30_000;
const CLOSE_GRACE_MS = 5_000;
/** After `exit`, how long to wait for stdout to drain (`close`) before giving up on late records. */
const DRAIN_MS = 1_000;
const DIAGNOSTIC_RECORDS = 20;

interface Waiter {
	readonly description: string;
	readonly since: number;
	readonly test: (record: RpcRecord) => boolean;
	readonly resolve: (index: number) => void;
	readonly reject: (error: Error) => void;
	readonly timer: NodeJS.Timeout;
}

interface MutableExchange {
	readonly request: DialogRequest;
	readonly recordIndex: number;
	answer: DialogAnswer | undefined;
}

const sessions = new Set<RpcSession>();

function label(record: RpcRecord): string {
	const detail = [record.method, record.command, record.toolName].find((v) => typeof v === "string");
	return typeof detail === "string" ? `${record.type}(${detail})` : record.type;
}

function isResponseTo(id: string): (record: RpcRecord) => boolean {
	return (record) => record.type === "response" && record.id === id;
}

export class RpcSession {
	private readonly child: PiChild;
	private readonly stdin: Writable;
	private readonly defaultTimeoutMs: number;
	private readonly records: RpcRecord[] = [];
	private readonly exchanges: MutableExchange[] = [];
	private readonly notices: Notification[] = [];
	private readonly statusByKey = new Map<string, string>();
	private readonly nonJsonLines: string[] = [];
	private readonly waiters = new Set<Waiter>();
	private policy: DialogPolicy;
	private stderrText = "";
	private nextId = 1;
	private failure: Error | undefined;
	private closing = false;
	private finished: ExitInfo | undefined;
	private closePromise: Promise<ExitInfo> | undefined;
	private resolveExited: (info: ExitInfo) => void = () => {};

	/** Resolves when the process has exited and its output is drained. */
	readonly exited: Promise<ExitInfo>;

	constructor(options: RpcStartOptions) {
		this.policy = options.dialog;
		this.defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		this.exited = new Promise((resolve) => {
			this.resolveExited = resolve;
		});
		this.child = spawnPi(options, ["--mode", "rpc"], "pipe");
		if (this.child.stdin === null) throw new Error("pi was spawned without a stdin pipe");
		this.stdin = this.child.stdin;
		// A write after pi died raises EPIPE here; the exit handling reports it.
		this.stdin.on("error", () => {});
		this.child.stdout.setEncoding("utf8");
		this.child.stderr.setEncoding("utf8");
		this.child.stdout.on(
			"data",
			createLineSplitter((line) => this.onLine(line)),
		);
		this.child.stderr.on("data", (chunk: string) => {
			this.stderrText += chunk;
		});
		this.child.once("error", (error) => {
			this.stderrText += `\n[harness] spawn error: ${error.message}`;
			this.finish({ code: null, signal: null });
		});
		this.child.once("exit", (code, signal) => {
			const drainTimer = setTimeout(() => this.finish({ code, signal }), DRAIN_MS);
			this.child.once("close", () => {
				clearTimeout(drainTimer);
				this.finish({ code, signal });
			});
		});
		sessions.add(this);
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	/** Every stdout record, in arrival order. */
	get events(): readonly RpcRecord[] {
		return this.records;
	}

	get dialogs(): readonly DialogExchange[] {
		return this.exchanges;
	}

	/** `notify` requests, in order. */
	get notifications(): readonly Notification[] {
		return this.notices;
	}

	/** The latest `setStatus` text per key (cleared keys are absent). */
	get statuses(): ReadonlyMap<string, string> {
		return this.statusByKey;
	}

	/** Stdout lines that were not protocol records: something wrote to pi's stdout and corrupted the stream. */
	get protocolErrors(): readonly string[] {
		return this.nonJsonLines;
	}

	get stderr(): string {
		return this.stderrText;
	}

	/** `undefined` while running. */
	get exitInfo(): ExitInfo | undefined {
		return this.finished;
	}

	setDialogPolicy(policy: DialogPolicy): void {
		this.policy = policy;
	}

	/** Writes a command (an `id` is added when absent) and returns its id. */
	send(command: RpcCommand): string {
		const id = command.id ?? `h${this.nextId++}`;
		this.write({ ...command, id });
		return id;
	}

	async request(command: RpcCommand, options: { readonly timeoutMs?: number } = {}): Promise<RpcResponse> {
		const since = this.records.length;
		const id = this.send(command);
		const index = await this.awaitRecord(
			`the response to ${command.type} (id ${id})`,
			isResponseTo(id),
			since,
			options.timeoutMs ?? this.defaultTimeoutMs,
		);
		return responseSchema.parse(this.records[index]);
	}

	async getState(options: { readonly timeoutMs?: number } = {}): Promise<RpcState> {
		const response = await this.request({ type: "get_state" }, options);
		if (!response.success) throw new Error(`get_state failed: ${response.error ?? "no error text"}`);
		const state = stateSchema.parse(response.data);
		return {
			sessionId: state.sessionId,
			sessionFile: state.sessionFile,
			isStreaming: state.isStreaming,
			messageCount: state.messageCount,
		};
	}

	/** Sends a prompt and waits for the run it starts to settle (`agent_settled`). */
	async prompt(text: string, options: { readonly timeoutMs?: number } = {}): Promise<PromptRun> {
		const deadline = Date.now() + (options.timeoutMs ?? this.defaultTimeoutMs);
		const since = this.records.length;
		const id = this.send({ type: "prompt", message: text });
		const shortText = JSON.stringify(text.slice(0, 80));
		const responseIndex = await this.awaitRecord(
			`the response to prompt ${shortText} (id ${id})`,
			isResponseTo(id),
			since,
			deadline - Date.now(),
		);
		const response = responseSchema.parse(this.records[responseIndex]);
		if (!response.success)
			throw new Error(`pi rejected prompt ${shortText}: ${response.error ?? "no error text"}`);
		const { disposition } = promptDataSchema.parse(response.data);
		const end =
			disposition === "handled"
				? this.records.length - 1
				: await this.awaitRecord(
						`agent_settled after prompt ${shortText}`,
						(record) => record.type === "agent_settled",
						since,
						deadline - Date.now(),
					);
		return this.summarize(disposition, since, end);
	}

	/** Runs a user bash command (RPC `bash`, the `!cmd` path: `user_bash`, not `tool_call`). */
	async userBash(command: string, options: { readonly timeoutMs?: number } = {}): Promise<UserBashOutcome> {
		const response = await this.request({ type: "bash", command }, options);
		if (!response.success) return { success: false, error: response.error ?? "no error text" };
		const data = bashDataSchema.parse(response.data);
		return {
			success: true,
			output: data.output,
			exitCode: data.exitCode ?? undefined,
			cancelled: data.cancelled,
			truncated: data.truncated,
		};
	}

	/** RPC `new_session`: pi shuts the session down, re-runs the extension factories and starts a fresh one. */
	async newSession(options: { readonly parentSession?: string; readonly timeoutMs?: number } = {}): Promise<{
		cancelled: boolean;
	}> {
		const command: RpcCommand =
			options.parentSession === undefined
				? { type: "new_session" }
				: { type: "new_session", parentSession: options.parentSession };
		const response = await this.request(command, options);
		if (!response.success) throw new Error(`new_session failed: ${response.error ?? "no error text"}`);
		return { cancelled: newSessionDataSchema.parse(response.data).cancelled };
	}

	/** The first record at index >= `since` satisfying `predicate`, waiting for it if needed. */
	async waitFor(
		predicate: (record: RpcRecord) => boolean,
		timeoutMs: number = this.defaultTimeoutMs,
		since = 0,
	): Promise<RpcRecord> {
		const index = await this.awaitRecord(
			"a record matching the waitFor predicate",
			predicate,
			since,
			timeoutMs,
		);
		const record = this.records[index];
		if (record === undefined) throw new Error(`record ${index} vanished`);
		return record;
	}

	/** The first dialog (from record index `since`) satisfying `predicate`. */
	async waitForDialog(
		predicate: (request: DialogRequest) => boolean = () => true,
		timeoutMs: number = this.defaultTimeoutMs,
		since = 0,
	): Promise<DialogExchange> {
		const index = await this.awaitRecord(
			"a dialog matching the waitForDialog predicate",
			(record) => {
				const parsed = dialogRequestSchema.safeParse(record);
				return parsed.success && predicate(parsed.data);
			},
			since,
			timeoutMs,
		);
		const exchange = this.exchanges.find((e) => e.recordIndex === index);
		if (exchange === undefined) throw new Error(`dialog record ${index} was not registered`);
		return exchange;
	}

	/** Answers a still-unanswered dialog by hand (e.g. one left open by the `never` policy). */
	respond(dialogId: string, answer: DialogAnswer): void {
		const exchange = this.exchanges.find((e) => e.request.id === dialogId);
		if (exchange === undefined) throw new Error(`no dialog with id ${dialogId}`);
		if (exchange.answer !== undefined && !("never" in exchange.answer)) {
			throw new Error(`dialog ${dialogId} was already answered`);
		}
		const response = uiResponseFor(exchange.request, answer);
		exchange.answer = answer;
		if (response !== undefined) this.write(response);
	}

	/** Closes stdin (pi's orderly shutdown) and waits; SIGTERM then SIGKILL if pi lingers. Idempotent. */
	close(graceMs: number = CLOSE_GRACE_MS): Promise<ExitInfo> {
		this.closePromise ??= this.shutDown(graceMs);
		return this.closePromise;
	}

	/** Signals pi and every process below it (tool commands included). */
	kill(signal: NodeJS.Signals = "SIGKILL"): void {
		this.closing = true;
		killProcessTree(this.child, signal);
	}

	private async shutDown(graceMs: number): Promise<ExitInfo> {
		this.closing = true;
		if (this.finished) return this.finished;
		this.stdin.end();
		const graceful = await settleWithin(this.exited, graceMs);
		if (graceful) return graceful;
		killProcessTree(this.child, "SIGTERM");
		const terminated = await settleWithin(this.exited, 1_000);
		if (terminated) return terminated;
		killProcessTree(this.child, "SIGKILL");
		return this.exited;
	}

	private write(message: object): void {
		if (this.failure) throw this.failure;
		if (this.finished || this.stdin.writableEnded || this.stdin.destroyed) {
			throw new Error(
				`cannot send ${JSON.stringify(message).slice(0, 200)}: pi's stdin is closed\n${this.diagnostics()}`,
			);
		}
		this.stdin.write(`${JSON.stringify(message)}\n`);
	}

	private onLine(line: string): void {
		if (line.trim() === "") return;
		const record = parseRecord(line);
		if (record === undefined) {
			this.nonJsonLines.push(line);
			return;
		}
		const index = this.records.push(record) - 1;
		if (record.type === "extension_ui_request") this.onUiRequest(record, index);
		for (const waiter of this.waiters) {
			if (index >= waiter.since && waiter.test(record)) {
				this.waiters.delete(waiter);
				clearTimeout(waiter.timer);
				waiter.resolve(index);
			}
		}
	}

	private onUiRequest(record: RpcRecord, index: number): void {
		if (DIALOG_METHODS.some((method) => method === record.method)) {
			const parsed = dialogRequestSchema.safeParse(record);
			if (!parsed.success) {
				this.trip(`malformed dialog request ${JSON.stringify(record)}: ${z.prettifyError(parsed.error)}`);
				return;
			}
			const exchange: MutableExchange = { request: parsed.data, recordIndex: index, answer: undefined };
			this.exchanges.push(exchange);
			void this.answerDialog(exchange, this.policy);
			return;
		}
		const notice = notifySchema.safeParse(record);
		if (notice.success) {
			this.notices.push({ message: notice.data.message, notifyType: notice.data.notifyType });
			return;
		}
		const status = statusSchema.safeParse(record);
		if (status.success) {
			if (status.data.statusText === undefined) this.statusByKey.delete(status.data.statusKey);
			else this.statusByKey.set(status.data.statusKey, status.data.statusText);
		}
	}

	private async answerDialog(exchange: MutableExchange, policy: DialogPolicy): Promise<void> {
		try {
			const answer = await policy(exchange.request);
			if (this.finished || this.failure) return;
			if (exchange.answer !== undefined) return; // answered by hand meanwhile
			const response = uiResponseFor(exchange.request, answer);
			exchange.answer = answer;
			if (response !== undefined) this.write(response);
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			this.trip(`the dialog policy failed on ${describeDialog(exchange.request)}: ${reason}`);
		}
	}

	private awaitRecord(
		description: string,
		test: (record: RpcRecord) => boolean,
		since: number,
		timeoutMs: number,
	): Promise<number> {
		if (this.failure) return Promise.reject(this.failure);
		const existing = this.records.findIndex((record, index) => index >= since && test(record));
		if (existing >= 0) return Promise.resolve(existing);
		if (this.finished) return Promise.reject(this.endedError(description, this.finished));
		return new Promise((resolve, reject) => {
			const timer = setTimeout(
				() => {
					reject(this.trip(`timed out after ${timeoutMs} ms waiting for ${description}`));
				},
				Math.max(0, timeoutMs),
			);
			this.waiters.add({ description, since, test, resolve, reject, timer });
		});
	}

	/** The watchdog: records the failure, kills pi, fails every pending wait with the same error. */
	private trip(reason: string): Error {
		const error = new Error(`RPC watchdog: ${reason}; pi was killed\n${this.diagnostics()}`);
		this.failure ??= error;
		this.closing = true;
		killProcessTree(this.child, "SIGKILL");
		for (const waiter of this.waiters) {
			clearTimeout(waiter.timer);
			waiter.reject(error);
		}
		this.waiters.clear();
		return error;
	}

	private finish(info: ExitInfo): void {
		if (this.finished) return;
		this.finished = info;
		sessions.delete(this);
		for (const waiter of this.waiters) {
			clearTimeout(waiter.timer);
			waiter.reject(this.failure ?? this.endedError(waiter.description, info));
		}
		this.waiters.clear();
		this.resolveExited(info);
	}

	private endedError(description: string, info: ExitInfo): Error {
		const how = this.closing ? "the RPC session was closed" : "pi exited unexpectedly";
		return new Error(
			`${how} (code ${info.code}, signal ${info.signal}) while waiting for ${description}\n${this.diagnostics()}`,
		);
	}

	private diagnostics(): string {
		const recent = this.records.slice(-DIAGNOSTIC_RECORDS).map(label).join(", ") || "(none)";
		const pending = this.exchanges
			.filter((exchange) => exchange.answer === undefined || "never" in exchange.answer)
			.map((exchange) => `  pending dialog: ${describeDialog(exchange.request)}`);
		const lines = [
			`last ${Math.min(DIAGNOSTIC_RECORDS, this.records.length)} of ${this.records.length} records: ${recent}`,
			...(pending.length > 0 ? pending : ["  no pending dialog"]),
		];
		if (this.nonJsonLines.length > 0)
			lines.push(`non-JSON stdout lines: ${tail(this.nonJsonLines.join("\n"), 500)}`);
		lines.push(`--- stderr tail ---\n${tail(this.stderrText) || "(empty)"}`);
		return lines.join("\n");
	}

	private summarize(disposition: string, since: number, end: number): PromptRun {
		const records = this.records.slice(since, end + 1);
		const dialogs = this.exchanges.filter((e) => e.recordIndex >= since && e.recordIndex <= end);
		return { disposition, records, dialogs, ...summarizeRun(records) };
	}
}

async function settleWithin(promise: Promise<ExitInfo>, ms: number): Promise<ExitInfo | undefined> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<undefined>((resolve) => {
		timer = setTimeout(() => resolve(undefined), ms);
	});
	try {
		return await Promise.race([promise, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

/** Starts `pi --mode rpc` and waits until it answers `get_state`, so a pi that cannot start fails here. */
export async function startRpc(options: RpcStartOptions): Promise<RpcSession> {
	const session = new RpcSession(options);
	try {
		await session.getState();
	} catch (error) {
		session.kill();
		await session.exited;
		throw error;
	}
	return session;
}

/** Kills every RPC session still running and waits for them to exit (for afterEach / afterAll). */
export async function killAllRpc(): Promise<void> {
	const running = [...sessions];
	for (const session of running) session.kill("SIGKILL");
	await Promise.all(running.map((session) => session.exited));
}
