/**
 * One-shot pi runs: `pi -p <prompt>` (text) or `pi --mode json -p <prompt>` (JSONL events), behind a watchdog.
 * In these modes `ctx.hasUI` is false, so any ask resolves without a human.
 */
import { type JsonRecord, parseRecord } from "./jsonl-record.ts";
import { createLineSplitter, killProcessTree, type PiLaunchOptions, spawnPi, tail } from "./pi-process.ts";
import { type RunSummary, summarizeRun } from "./run-summary.ts";

export interface PrintRunOptions extends PiLaunchOptions {
	readonly prompt: string;
	/** Defaults to 60 s; past it the process tree is killed and the run rejects. */
	readonly timeoutMs?: number;
	readonly mode?: "text" | "json";
}

export interface PrintRunResult {
	readonly code: number | null;
	readonly signal: NodeJS.Signals | null;
	readonly stdout: string;
	readonly stderr: string;
	readonly durationMs: number;
}

/** `toolResults`, `finalText` and `aborted` are read off `events`, as for an RPC prompt. */
export interface JsonRunResult extends PrintRunResult, RunSummary {
	/** Every stdout record of `--mode json`, in order. */
	readonly events: readonly JsonRecord[];
	/** Stdout lines that were not JSON objects with a `type` (an extension writing to stdout, for example). */
	readonly nonJsonLines: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 60_000;

export function runPrint(options: PrintRunOptions & { readonly mode: "json" }): Promise<JsonRunResult>;
export function runPrint(options: PrintRunOptions & { readonly mode?: "text" }): Promise<PrintRunResult>;
export function runPrint(options: PrintRunOptions): Promise<PrintRunResult | JsonRunResult>;
export function runPrint(options: PrintRunOptions): Promise<PrintRunResult | JsonRunResult> {
	const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const modeArgs =
		options.mode === "json" ? ["--mode", "json", "-p", options.prompt] : ["-p", options.prompt];
	const started = performance.now();
	const child = spawnPi(options, modeArgs, "ignore");
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8");
	child.stderr.setEncoding("utf8");
	child.stdout.on("data", (chunk: string) => {
		stdout += chunk;
	});
	child.stderr.on("data", (chunk: string) => {
		stderr += chunk;
	});

	return new Promise((resolve, reject) => {
		const watchdog = setTimeout(() => {
			killProcessTree(child, "SIGKILL");
			reject(
				new Error(
					`pi ${options.mode ?? "text"} run timed out after ${timeoutMs} ms (process tree killed)\n` +
						`prompt: ${JSON.stringify(options.prompt)}\n--- stderr tail ---\n${tail(stderr)}\n` +
						`--- stdout tail ---\n${tail(stdout)}`,
				),
			);
		}, timeoutMs);
		child.once("error", (error) => {
			clearTimeout(watchdog);
			reject(new Error(`could not start pi: ${error.message}`));
		});
		// "close" (not "exit") so the last stdout/stderr chunks are in.
		child.once("close", (code, signal) => {
			clearTimeout(watchdog);
			const result: PrintRunResult = {
				code,
				signal,
				stdout,
				stderr,
				durationMs: Math.round(performance.now() - started),
			};
			if (options.mode !== "json") {
				resolve(result);
				return;
			}
			const parsed = parseJsonl(stdout);
			resolve({ ...result, ...parsed, ...summarizeRun(parsed.events) });
		});
	});
}

function parseJsonl(stdout: string): { events: JsonRecord[]; nonJsonLines: string[] } {
	const events: JsonRecord[] = [];
	const nonJsonLines: string[] = [];
	const split = createLineSplitter((line) => {
		if (line.trim() === "") return;
		const record = parseRecord(line);
		if (record) events.push(record);
		else nonJsonLines.push(line);
	});
	split(stdout.endsWith("\n") ? stdout : `${stdout}\n`);
	return { events, nonJsonLines };
}
