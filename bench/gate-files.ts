/**
 * Figure 13: the gate's own files under stress (adr/0005, adr/0013). Real processes on real files:
 * - 16 writer processes append allowed-call lines (each on disk before the call may run) across many rotations:
 *   lines per second, and how many a reader can no longer find (target 0);
 * - a writer killed with SIGKILL mid-stream, 200 times, each followed by another writer: lines it had reported
 *   written but that are gone, and next writers' first lines glued to a torn tail (targets 0; only the batch being
 *   written at the kill may be lost);
 * - a root whose file watching is exhausted at start (a user namespace with no inotify instance): asks answered
 *   through the polling fallback, and their round trip.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parseAuditLine } from "../src/audit/audit-entry.ts";
import { AuditWriter } from "../src/audit/audit-writer.ts";
import { forwardAsk } from "../src/hub/hub-client.ts";
import { HubLog } from "../src/hub/hub-log.ts";
import { inboxLayout } from "../src/hub/protocol.ts";
import { makeRequest } from "../test/hub/sample-request.ts";
import type { FigureResult } from "./report.ts";
import { summarize } from "./stats.ts";

const run = promisify(execFile);
const WRITER = fileURLToPath(new URL("./audit-writer-proc.ts", import.meta.url));
const HUB_CHILD = fileURLToPath(new URL("../test/hub/hub-child.ts", import.meta.url));

const WRITERS = 16;
const LINES_EACH = 400;
const KILLS = 200;
const ASKS = 100;

/** The entries of every log file in `dir`, by preview key, and the lines no reader accepts. */
function readLogs(dir: string): { keys: Set<string>; corrupt: number } {
	const keys = new Set<string>();
	let corrupt = 0;
	for (const name of readdirSync(dir).filter((n) => n.endsWith(".jsonl"))) {
		for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
			if (line === "") continue;
			const entry = parseAuditLine(line);
			if (entry === null) corrupt++;
			else keys.add(entry.preview.split(":").slice(0, 2).join(":"));
		}
	}
	return { keys, corrupt };
}

async function writersAcrossRotation(): Promise<{ linesPerSecond: number; lost: number; corrupt: number }> {
	const dir = mkdtempSync(join(tmpdir(), "pph-bench-audit-"));
	try {
		const file = join(dir, "audit.jsonl");
		const started = performance.now();
		await Promise.all(
			Array.from({ length: WRITERS }, (_, w) =>
				run(process.execPath, [WRITER, file, `w${w}`, String(LINES_EACH), String(256 * 1024), "400"]),
			),
		);
		const seconds = (performance.now() - started) / 1000;
		const { keys, corrupt } = readLogs(dir);
		return {
			linesPerSecond: (WRITERS * LINES_EACH) / seconds,
			lost: WRITERS * LINES_EACH - keys.size,
			corrupt,
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** One writer streaming until SIGKILL after a random moment; what it reported written, by number. */
function killedWriter(file: string, id: string): Promise<number[]> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [WRITER, file, id, "0"], { stdio: ["ignore", "pipe", "ignore"] });
		let out = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			out += chunk;
			// Killed once it is writing, at a moment of its stream no two kills share.
			if (out.length > 0 && !child.killed) setTimeout(() => child.kill("SIGKILL"), Math.random() * 15);
		});
		child.once("close", () =>
			resolve(
				out
					.split("\n")
					.filter((l) => l !== "")
					.map(Number),
			),
		);
	});
}

async function killsMidStream(): Promise<{
	lostAcknowledged: number;
	gluedFirstLines: number;
	torn: number;
}> {
	const dir = mkdtempSync(join(tmpdir(), "pph-bench-kill-"));
	try {
		const file = join(dir, "audit.jsonl");
		const acknowledged: string[] = [];
		const markers: string[] = [];
		for (let k = 0; k < KILLS; k++) {
			const id = `k${k}`;
			for (const n of await killedWriter(file, id)) acknowledged.push(`${id}:${n}`);
			// The next session's first line, written after whatever the kill left.
			const marker = new AuditWriter({ file });
			marker.recordNow({
				v: 1,
				time: new Date().toISOString(),
				sessionId: "bench-marker",
				event: "tool_call",
				origin: { kind: "headless" },
				tool: "bash",
				tier: "read",
				actionHash: "d".repeat(64),
				preview: `m${k}:0:marker`,
				mode: "auto",
				outcome: "allow",
				source: { kind: "authorizer", link: "bench", verdict: "allow" },
				latencyMs: 1,
				configFiles: [],
			});
			markers.push(`m${k}:0`);
		}
		const { keys, corrupt } = readLogs(dir);
		return {
			lostAcknowledged: acknowledged.filter((key) => !keys.has(key)).length,
			gluedFirstLines: markers.filter((key) => !keys.has(key)).length,
			torn: corrupt,
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** A serving root whose inotify is exhausted from the start, and `ASKS` asks one after another. */
async function pollingFallback(): Promise<{ answered: number; latencies: number[] }> {
	const agentDir = mkdtempSync(join(tmpdir(), "pph-bench-poll-"));
	const sessionId = "0192f3a4-5b6c-7d8e-9f00-aabbccddeeff";
	const logFile = join(agentDir, "hub.log");
	const job = JSON.stringify({ mode: "serve", agentDir, sessionId, logFile, decide: "allow" });
	const server = spawn(
		"unshare",
		[
			"--user",
			"--map-root-user",
			"sh",
			"-c",
			'echo 0 > /proc/sys/user/max_inotify_instances && exec "$@"',
			"sh",
			process.execPath,
			HUB_CHILD,
			job,
		],
		{ stdio: ["ignore", "pipe", "pipe"] },
	);
	try {
		await new Promise<void>((resolve, reject) => {
			let out = "";
			server.stdout.setEncoding("utf8").on("data", (chunk: string) => {
				out += chunk;
				if (out.includes('"serving"')) resolve();
			});
			server.once("exit", (code) => reject(new Error(`the polling server exited (${code})`)));
		});
		const target = {
			sessionId,
			inbox: inboxLayout(agentDir, sessionId).root,
			location: "other-process" as const,
			pid: server.pid ?? null,
			path: ["root"],
			via: "bench",
		};
		const log = new HubLog(logFile);
		const latencies: number[] = [];
		let answered = 0;
		for (let i = 0; i < ASKS; i++) {
			const started = performance.now();
			const outcome = await forwardAsk(target, makeRequest(), { timeoutMs: 10_000, log });
			latencies.push(performance.now() - started);
			if (outcome.kind === "answered") answered++;
		}
		return { answered, latencies };
	} finally {
		server.kill("SIGKILL");
		rmSync(agentDir, { recursive: true, force: true });
	}
}

export async function gateFilesFigure(): Promise<FigureResult> {
	const rotation = await writersAcrossRotation();
	const kills = await killsMidStream();
	const polling = await pollingFallback();
	const poll = summarize(polling.latencies);
	return {
		figure: "13. The gate's own files: audit writers, kill -9, the polling fallback",
		measurements: [
			{
				label: `audit lines/s, ${WRITERS} writer processes across rotation`,
				value: rotation.linesPerSecond,
				unit: "lines/s",
			},
			{
				label: "lines lost across rotation (16 writers)",
				value: rotation.lost,
				unit: "",
				target: { op: "==", value: 0 },
			},
			{
				label: "lines torn across rotation (16 writers)",
				value: rotation.corrupt,
				unit: "",
				target: { op: "==", value: 0 },
			},
			{
				label: `lines reported written, then lost (${KILLS} kill -9s)`,
				value: kills.lostAcknowledged,
				unit: "",
				target: { op: "==", value: 0 },
			},
			{
				label: `next writer's first line lost to a torn tail (${KILLS} kills)`,
				value: kills.gluedFirstLines,
				unit: "",
				target: { op: "==", value: 0 },
			},
			{
				label: `torn lines left (at most the ${KILLS} killed batches)`,
				value: kills.torn,
				unit: "",
				target: { op: "<=", value: KILLS },
			},
			{
				label: `asks answered with inotify exhausted (of ${ASKS})`,
				value: polling.answered,
				unit: "",
				target: { op: "==", value: ASKS },
			},
			{ label: "ask round trip through the polling fallback, median", value: poll.median, unit: "ms" },
			{ label: "ask round trip through the polling fallback, p99", value: poll.p99, unit: "ms" },
		],
		notes: [
			`${WRITERS} processes × ${LINES_EACH} lines of ~700 bytes, 256 KiB files, each line on disk before its writer goes on`,
			`${KILLS} writers killed at a random moment of their stream; each followed by one more writer's line`,
			`the server polls every 200 ms (chokidar) in a user namespace whose inotify limit is 0`,
		],
	};
}
