/**
 * One `pi --mode json -p` run as a subagent would be started, with every stdout record stamped with the time this
 * process received it (for the real-pi figures 11 and 12), and its resource use read by `/usr/bin/time`.
 */
import { spawn } from "node:child_process";
import { parseRecord } from "../test/harness/jsonl-record.ts";
import { node22Binary } from "../test/harness/paths.ts";
import { createLineSplitter, type PiLaunchOptions, piArguments } from "../test/harness/pi-process.ts";
import { type TimedRecord, toolCallTimings } from "./timed-rpc.ts";

export interface TimedChildRun {
	/** Spawn to exit. */
	readonly wallMs: number;
	/** User + system CPU of pi's process and of the commands it ran and waited for (`/usr/bin/time` counts both). */
	readonly cpuMs: number;
	readonly peakRssMiB: number;
	/** Each tool call's `tool_execution_start` → `tool_execution_end`, in order. */
	readonly callMs: readonly number[];
	readonly errors: number;
	readonly stderr: string;
}

const TIME_FORMAT = "PPH-TIME %e %U %S %M";

export function timedChildRun(options: PiLaunchOptions, prompt: string): Promise<TimedChildRun> {
	const started = performance.now();
	const child = spawn(
		"/usr/bin/time",
		["-f", TIME_FORMAT, node22Binary(), ...piArguments(options, ["--mode", "json", "-p", prompt])],
		{
			cwd: options.cwd ?? options.sandbox.workDir,
			env: options.sandbox.env(options.env),
			stdio: ["ignore", "pipe", "pipe"],
		},
	);
	const records: TimedRecord[] = [];
	let stderr = "";
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
		stderr += chunk;
	});
	child.stdout.setEncoding("utf8").on(
		"data",
		createLineSplitter((line) => {
			const at = performance.now();
			const record = parseRecord(line);
			if (record !== undefined) records.push({ at, record });
		}),
	);
	return new Promise((resolve, reject) => {
		const watchdog = setTimeout(() => child.kill("SIGKILL"), 120_000);
		child.once("error", reject);
		child.once("close", (code) => {
			clearTimeout(watchdog);
			const wallMs = performance.now() - started;
			const time = stderr.split("\n").find((l) => l.startsWith("PPH-TIME "));
			const [elapsed, user, system, rssKiB] = (time ?? "").split(" ").slice(1).map(Number);
			if (code !== 0 || time === undefined || elapsed === undefined) {
				reject(new Error(`a child run failed (exit ${code}): ${stderr.slice(-800)}`));
				return;
			}
			const timings = toolCallTimings(records);
			resolve({
				wallMs,
				cpuMs: ((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000,
				peakRssMiB: (rssKiB ?? Number.NaN) / 1024,
				callMs: timings.map((t) => t.ms),
				errors: timings.filter((t) => t.isError).length,
				stderr,
			});
		});
	});
}
