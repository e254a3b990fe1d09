/**
 * Figure 12: what the gate costs a subagent's whole run. `pi --mode json -p` with the scripted model making N
 * sequential `echo k` calls (N = 1, 5, 20, 40), with and without `-e dist/extension/index.js`, in back-to-back
 * pairs; wall time from spawn to exit, CPU time (pi's and the commands it waited for) and peak RSS from
 * `/usr/bin/time`; the figure is the median of the pairs' differences. Targets: the first call adds at most
 * 100 ms of CPU (N = 1), each later call at most 1 ms on average ((N = 40 − N = 1) / 39), and memory at most
 * 15 MiB at every N. They hold for the gate with its sandbox off: the sandbox's own processes are reported apart
 * (the same runs with the sandbox on, the default), since every sandboxed call adds figure 10's cost.
 */
import { writeScript } from "../test/harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../test/harness/paths.ts";
import { createSandbox, type Sandbox } from "../test/harness/sandbox.ts";
import type { FigureResult, Measurement } from "./report.ts";
import { median } from "./stats.ts";
import { type TimedChildRun, timedChildRun } from "./timed-child.ts";

const SIZES = [1, 5, 20, 40] as const;
/** Pairs per N: this VM's runs of one build differ by ±100 ms, so the figure is the median of many pairs. */
const RUNS = 9;

interface Cost {
	readonly wallMs: number;
	readonly cpuMs: number;
	readonly peakRssMiB: number;
}

async function run(sb: Sandbox, calls: number, gated: boolean): Promise<TimedChildRun> {
	const result = await timedChildRun({ sandbox: sb, extensions: gated ? [EXTENSION_ENTRY] : [] }, "go");
	if (result.callMs.length !== calls || result.errors > 0) {
		throw new Error(`a ${gated ? "gated" : "bare"} run made ${result.callMs.length} of ${calls} calls`);
	}
	return result;
}

/** The median of each pair's difference: a pair runs back to back, so a drift in the machine's speed hits both. */
function medianAddedCost(pairs: readonly { gated: TimedChildRun; bare: TimedChildRun }[]): Cost {
	const added = (measure: (run: TimedChildRun) => number): number =>
		median(pairs.map((pair) => measure(pair.gated) - measure(pair.bare)));
	return {
		wallMs: added((run) => run.wallMs),
		cpuMs: added((run) => run.cpuMs),
		peakRssMiB: added((run) => run.peakRssMiB),
	};
}

async function addedCost(sb: Sandbox, calls: number): Promise<Cost> {
	await writeScript(sb, {
		conversations: [
			{
				turns: [
					...Array.from({ length: calls }, (_, k) => ({
						calls: [{ tool: "bash", input: { command: `echo ${k}` } }],
					})),
					{ text: "done" },
				],
			},
		],
	});
	await run(sb, calls, true);
	const pairs: { gated: TimedChildRun; bare: TimedChildRun }[] = [];
	for (let i = 0; i < RUNS; i++) {
		// The order flips every pair, so neither side always runs first (with the other's files warm in the cache).
		const gatedFirst = i % 2 === 0;
		const first = await run(sb, calls, gatedFirst);
		const second = await run(sb, calls, !gatedFirst);
		pairs.push(gatedFirst ? { gated: first, bare: second } : { gated: second, bare: first });
	}
	return medianAddedCost(pairs);
}

export async function childGateCostFigure(): Promise<FigureResult> {
	const sb = await createSandbox();
	try {
		const measurements: Measurement[] = [];
		const notes: string[] = [];
		await sb.writeAgentFile(
			"pi-permission-hub/config.json",
			`${JSON.stringify({ sandbox: { enabled: false } })}\n`,
		);
		const costs = new Map<number, Cost>();
		for (const calls of SIZES) {
			const cost = await addedCost(sb, calls);
			costs.set(calls, cost);
			measurements.push(
				{ label: `N = ${calls}: added wall time`, value: cost.wallMs, unit: "ms" },
				{
					label: `N = ${calls}: added CPU time`,
					value: cost.cpuMs,
					unit: "ms",
					// N = 1 is the first call: loading the gate, its parser and its hub is paid there.
					...(calls === 1 ? { target: { op: "<=", value: 100 } as const } : {}),
				},
				{
					label: `N = ${calls}: added peak RSS`,
					value: cost.peakRssMiB,
					unit: "MiB",
					target: { op: "<=", value: 15 },
				},
			);
		}
		const first = costs.get(1)?.cpuMs ?? Number.NaN;
		const last = costs.get(40)?.cpuMs ?? Number.NaN;
		measurements.push({
			label: "each later call: added CPU, (N = 40 − N = 1) / 39",
			value: (last - first) / 39,
			unit: "ms",
			target: { op: "<=", value: 1 },
		});
		await sb.writeAgentFile("pi-permission-hub/config.json", "{}\n");
		for (const calls of [1, 20] as const) {
			const cost = await addedCost(sb, calls);
			measurements.push(
				{ label: `sandbox on (the default), N = ${calls}: added wall time`, value: cost.wallMs, unit: "ms" },
				{ label: "  added CPU time", value: cost.cpuMs, unit: "ms" },
				{ label: "  added peak RSS", value: cost.peakRssMiB, unit: "MiB" },
			);
		}
		notes.push(
			`median of ${RUNS} back-to-back pairs (gated − bare) each; CPU is pi's and its waited-for commands' (bubblewrap included), RSS the largest of those processes' (pi's) (/usr/bin/time)`,
			"with the sandbox on, each call also runs inside bubblewrap: figure 10's per-call cost times N",
		);
		return {
			figure: `12. The gate's cost on a subagent's run (pi --mode json -p, N sequential bash calls, gate with its sandbox off)`,
			measurements,
			notes,
		};
	} finally {
		await sb.cleanup();
	}
}
