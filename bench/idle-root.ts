/**
 * Figure 7: a root with an open inbox and no children does nothing. A process opens a HubServer (directories,
 * server.json, chokidar watcher) and then, for 10 s between two stdin lines, counts every async callback that
 * runs (timers separately, through async_hooks) and the CPU time it uses; its active resources are listed.
 */
import { HubProc, stopAll } from "./hub-proc.ts";
import { createHubWorld } from "./hub-world.ts";
import type { FigureResult } from "./report.ts";

const IDLE_MS = 10_000;
const SETTLE_MS = 2_500;
/**
 * V8's memory reducer compacts a fresh heap a few seconds after start-up goes quiet (two full collections, ~30 ms
 * of CPU, no JS runs) — once, in any Node process, and its timing would land inside the window. It is switched
 * off in both measured processes so the window shows what the inbox itself costs.
 */
const NO_REDUCER = ["--no-memory-reducer"];

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.map(String) : [];
}

function countsOf(list: readonly string[]): string {
	const counts = new Map<string, number>();
	for (const item of list) counts.set(item, (counts.get(item) ?? 0) + 1);
	return [...counts].map(([k, n]) => (n > 1 ? `${k}×${n}` : k)).join(", ") || "none";
}

export async function idleRootFigure(): Promise<FigureResult> {
	const world = createHubWorld();
	const procs: HubProc[] = [];
	try {
		const root = new HubProc({ role: "idle", agentDir: world.agentDir }, NO_REDUCER);
		const baseline = new HubProc({ role: "idle", agentDir: world.agentDir, open: false }, NO_REDUCER);
		procs.push(root, baseline);
		await Promise.all([root.waitFor("ready"), baseline.waitFor("ready")]);
		// Let start-up work (the watcher, V8's compiler and collector) finish before the window opens.
		await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
		root.send("go");
		baseline.send("go");
		await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
		root.send("stop");
		baseline.send("stop");
		const report = await root.waitFor("idle");
		const base = await baseline.waitFor("idle");
		const atStart = strings(report.resourcesAtStart);
		const atEnd = strings(report.resourcesAtEnd);
		const timerHandles = [...atStart, ...atEnd].filter((r) => r === "Timeout" || r === "Immediate").length;
		const kinds =
			typeof report.callbackKinds === "object" && report.callbackKinds !== null ? report.callbackKinds : {};
		return {
			figure: "7. Idle root: open inbox (HubServer + chokidar), no children, 10 s",
			measurements: [
				{
					label: "timer callbacks fired during the window",
					value: Number(report.timerCallbacks),
					unit: "",
					target: { op: "==", value: 0 },
				},
				{
					label: "Timeout/Immediate handles active (start + end)",
					value: timerHandles,
					unit: "",
					target: { op: "==", value: 0 },
				},
				{
					label: "CPU time used over the window",
					value: Number(report.cpuMs),
					unit: "ms",
					target: { op: "<=", value: 10 },
				},
				{ label: "  same process without the inbox (baseline)", value: Number(base.cpuMs), unit: "ms" },
				{ label: "async callbacks of any kind during the window", value: Number(report.callbacks), unit: "" },
			],
			notes: [
				`window ${Number(report.elapsedMs).toFixed(0)} ms; active resources at start: ${countsOf(atStart)}; at end: ${countsOf(atEnd)}`,
				`callbacks by kind: ${JSON.stringify(kinds)} (the stdin line that closes the window arrives as a PIPEWRAP read)`,
				"both processes run with --no-memory-reducer: V8 otherwise compacts a fresh heap once after start-up goes quiet",
				"(~30 ms of CPU with no JS running, in any Node process), which would land inside the window",
			],
		};
	} finally {
		await stopAll(procs);
		world.cleanup();
	}
}
