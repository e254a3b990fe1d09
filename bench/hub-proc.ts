/** Spawns and talks to one `bench/hub-process.ts` process: JSON records out, lines in. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createLineSplitter } from "../test/harness/pi-process.ts";

const SCRIPT = fileURLToPath(new URL("./hub-process.ts", import.meta.url));

export type HubRecord = Readonly<Record<string, unknown>>;

export class HubProc {
	readonly records: HubRecord[] = [];
	private readonly child: ChildProcessWithoutNullStreams;
	private readonly waiters = new Set<{ test: (r: HubRecord) => boolean; resolve: (r: HubRecord) => void }>();
	private stderr = "";
	private exitCode: number | null | undefined;
	readonly exited: Promise<number | null>;

	constructor(job: Readonly<Record<string, unknown>>, nodeArgs: readonly string[] = []) {
		this.child = spawn(process.execPath, [...nodeArgs, SCRIPT, JSON.stringify(job)], {
			stdio: ["pipe", "pipe", "pipe"],
		});
		this.child.stdout.setEncoding("utf8").on(
			"data",
			createLineSplitter((line) => {
				let parsed: unknown;
				try {
					parsed = JSON.parse(line);
				} catch {
					return;
				}
				if (typeof parsed !== "object" || parsed === null) return;
				const record: HubRecord = { ...parsed };
				this.records.push(record);
				for (const waiter of this.waiters) {
					if (waiter.test(record)) {
						this.waiters.delete(waiter);
						waiter.resolve(record);
					}
				}
			}),
		);
		this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			this.stderr += chunk;
		});
		this.exited = new Promise((resolve) => {
			this.child.once("exit", (code) => {
				this.exitCode = code;
				resolve(code);
			});
		});
	}

	get pid(): number {
		return this.child.pid ?? 0;
	}

	/** The first record (already received or still to come) with this `event`. */
	waitFor(event: string, timeoutMs = 60_000): Promise<HubRecord> {
		const test = (r: HubRecord): boolean => r.event === event;
		const seen = this.records.find(test);
		if (seen) return Promise.resolve(seen);
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				this.waiters.delete(waiter);
				reject(
					new Error(
						`no "${event}" from hub process ${this.pid} within ${timeoutMs} ms\n${this.stderr.slice(-1500)}`,
					),
				);
			}, timeoutMs);
			const waiter = {
				test,
				resolve: (r: HubRecord) => {
					clearTimeout(timer);
					resolve(r);
				},
			};
			this.waiters.add(waiter);
			void this.exited.then((code) => {
				if (!this.waiters.has(waiter)) return;
				this.waiters.delete(waiter);
				clearTimeout(timer);
				reject(
					new Error(
						`hub process ${this.pid} exited (${code}) before "${event}"\n${this.stderr.slice(-1500)}`,
					),
				);
			});
		});
	}

	send(line: string): void {
		this.child.stdin.write(`${line}\n`);
	}

	endInput(): void {
		this.child.stdin.end();
	}

	kill(): void {
		if (this.exitCode === undefined) this.child.kill("SIGKILL");
	}
}

/** Ends every process still running (figures call this in `finally`). */
export async function stopAll(procs: readonly HubProc[]): Promise<void> {
	for (const proc of procs) proc.kill();
	await Promise.all(procs.map((p) => p.exited));
}
