/**
 * A minimal `pi --mode rpc` driver that stamps every stdout record with the time this process received it, for
 * per-call timings. It answers no dialogs: the figures that use it only run allowed calls, and a dialog (or a
 * blocked call) fails the figure instead of being waited for. Built on the real-pi harness (sandbox, spawn, kill).
 */
import { readFileSync } from "node:fs";
import { parseRecord } from "../test/harness/jsonl-record.ts";
import { createLineSplitter, killProcessTree, type PiChild, spawnPi } from "../test/harness/pi-process.ts";
import type { Sandbox } from "../test/harness/sandbox.ts";

export interface TimedRecord {
	readonly at: number;
	readonly record: Readonly<Record<string, unknown>>;
}

export class TimedRpc {
	readonly records: TimedRecord[] = [];
	private readonly child: PiChild;
	private stderr = "";
	private waiting: { test: (r: TimedRecord) => boolean; resolve: (r: TimedRecord) => void } | null = null;
	private exited = false;

	constructor(sandbox: Sandbox, extensions: readonly string[]) {
		this.child = spawnPi({ sandbox, extensions }, ["--mode", "rpc"], "pipe");
		this.child.stdout.setEncoding("utf8");
		this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			this.stderr += chunk;
		});
		this.child.stdout.on(
			"data",
			createLineSplitter((line) => {
				const at = performance.now();
				const record = parseRecord(line);
				if (record === undefined) return;
				const timed: TimedRecord = { at, record };
				this.records.push(timed);
				if (this.waiting?.test(timed)) {
					const { resolve } = this.waiting;
					this.waiting = null;
					resolve(timed);
				}
			}),
		);
		this.child.once("exit", () => {
			this.exited = true;
		});
	}

	/** Sends a prompt and resolves when its run settles; fails on a dialog, a pi exit, or after `timeoutMs`. */
	async prompt(message: string, timeoutMs = 60_000): Promise<TimedRecord[]> {
		const from = this.records.length;
		this.child.stdin?.write(`${JSON.stringify({ type: "prompt", message })}\n`);
		await this.waitFor(
			(r) => r.record.type === "agent_settled",
			timeoutMs,
			`agent_settled after "${message}"`,
		);
		return this.records.slice(from);
	}

	/** Resolves once pi answers `get_state`: it has started and loaded its extensions. */
	async ready(timeoutMs = 60_000): Promise<void> {
		this.child.stdin?.write(`${JSON.stringify({ type: "get_state", id: "ready" })}\n`);
		await this.waitFor(
			(r) => r.record.type === "response" && r.record.id === "ready",
			timeoutMs,
			"get_state",
		);
	}

	private waitFor(test: (r: TimedRecord) => boolean, timeoutMs: number, what: string): Promise<TimedRecord> {
		return new Promise((resolve, reject) => {
			const dialog = (r: TimedRecord): boolean =>
				r.record.type === "extension_ui_request" &&
				["select", "confirm", "input", "editor"].includes(String(r.record.method));
			const timer = setTimeout(() => fail(`timed out waiting for ${what}`), timeoutMs);
			const poll = setInterval(() => {
				if (this.exited) fail(`pi exited while waiting for ${what}`);
			}, 100);
			const fail = (why: string): void => {
				clearTimeout(timer);
				clearInterval(poll);
				this.waiting = null;
				reject(new Error(`${why}\n--- stderr ---\n${this.stderr.slice(-1500)}`));
			};
			this.waiting = {
				test: (r) => {
					if (dialog(r)) {
						fail(`unexpected dialog "${String(r.record.title)}" while waiting for ${what}`);
						return false;
					}
					return test(r);
				},
				resolve: (r) => {
					clearTimeout(timer);
					clearInterval(poll);
					resolve(r);
				},
			};
		});
	}

	/** Resident memory of the pi process (Linux /proc), NaN where it cannot be read. */
	residentMb(): number {
		try {
			const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
			const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
			return kb === undefined ? Number.NaN : Number(kb) / 1024;
		} catch {
			return Number.NaN;
		}
	}

	async close(): Promise<void> {
		this.child.stdin?.end();
		const gone = new Promise<void>((resolve) => {
			if (this.exited) resolve();
			else this.child.once("exit", () => resolve());
		});
		const timer = setTimeout(() => killProcessTree(this.child, "SIGKILL"), 5_000);
		await gone;
		clearTimeout(timer);
	}
}

export interface ToolCallTiming {
	readonly toolCallId: string;
	/** tool_execution_start → tool_execution_end. */
	readonly ms: number;
	/** tool_execution_start → the first tool_execution_update (the command's first output), NaN if none. */
	readonly firstUpdateMs: number;
	readonly isError: boolean;
}

/** Per call, as received by this process. */
export function toolCallTimings(records: readonly TimedRecord[]): ToolCallTiming[] {
	const starts = new Map<string, number>();
	const firstUpdates = new Map<string, number>();
	const timings: ToolCallTiming[] = [];
	for (const { at, record } of records) {
		const id = typeof record.toolCallId === "string" ? record.toolCallId : null;
		if (id === null) continue;
		if (record.type === "tool_execution_start") starts.set(id, at);
		if (record.type === "tool_execution_update" && !firstUpdates.has(id)) firstUpdates.set(id, at);
		if (record.type === "tool_execution_end") {
			const started = starts.get(id);
			if (started === undefined) continue;
			const update = firstUpdates.get(id);
			timings.push({
				toolCallId: id,
				ms: at - started,
				firstUpdateMs: update === undefined ? Number.NaN : update - started,
				isError: record.isError === true,
			});
		}
	}
	return timings;
}
