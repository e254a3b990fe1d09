/**
 * Figure 3: what the gate adds to each allowed tool call in a real pi (RPC mode, so the session has a UI and
 * serves its inbox like an interactive root). Two pi processes run the same scripted model in the same sandbox,
 * one with `-e dist/extension/index.js` and one without; their prompts alternate (10 calls each time), so background load
 * hits both alike. Each call is `echo N` (read tier: allowed without a dialog).
 *
 * Per call: tool_execution_start → tool_execution_end as received on pi's stdout by this process (pi runs the
 * tool_call handlers, so the gate, between the two). Added latency = median(gated) − median(bare). Also shown:
 * start → the first tool_execution_update, which pi's bash tool emits (empty) as soon as it starts executing, i.e.
 * right after the tool_call handlers: it leaves out the variable time bash takes to run and exit, so it isolates
 * what the gate adds before the tool runs; and the gate's own time per decision from its audit log.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FauxTurn, writeScript } from "../test/harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../test/harness/paths.ts";
import { createSandbox } from "../test/harness/sandbox.ts";
import type { FigureResult } from "./report.ts";
import { numberAt, runNodeScript } from "./run-node.ts";
import { median, summarize } from "./stats.ts";
import { TimedRpc, type ToolCallTiming, toolCallTimings } from "./timed-rpc.ts";

const WARMUP_CALLS = 5;
const CHUNKS = 10;
const CALLS_PER_CHUNK = 10;

function script(): FauxTurn[] {
	const turns: FauxTurn[] = [];
	let n = 0;
	const chunk = (calls: number, label: string): void => {
		for (let i = 0; i < calls; i++)
			turns.push({ calls: [{ tool: "bash", input: { command: `echo ${++n}` } }] });
		turns.push({ text: label });
	};
	chunk(WARMUP_CALLS, "warm");
	for (let c = 0; c < CHUNKS; c++) chunk(CALLS_PER_CHUNK, `chunk ${c + 1}`);
	return turns;
}

/** The gate's own latency per decision, from its audit log (tool_call entries, last `count`). */
function auditedLatencies(agentDir: string, count: number): number[] {
	const file = join(agentDir, "pi-permission-hub", "audit.jsonl");
	const values: number[] = [];
	for (const line of readFileSync(file, "utf8").split("\n")) {
		if (line.trim() === "") continue;
		const entry: unknown = JSON.parse(line);
		if (typeof entry !== "object" || entry === null) continue;
		const latency: unknown = Reflect.get(entry, "latencyMs");
		if (Reflect.get(entry, "event") === "tool_call" && typeof latency === "number") values.push(latency);
	}
	return values.slice(-count);
}

export async function gateLatencyFigure(): Promise<FigureResult> {
	const sandbox = await createSandbox();
	const sessions: TimedRpc[] = [];
	try {
		await writeScript(sandbox, { conversations: [{ turns: script() }] });
		const gated = new TimedRpc(sandbox, [EXTENSION_ENTRY]);
		const bare = new TimedRpc(sandbox, []);
		sessions.push(gated, bare);
		await Promise.all([gated.ready(), bare.ready()]);
		await gated.prompt("warm-up");
		await bare.prompt("warm-up");
		const gatedCalls: ToolCallTiming[] = [];
		const bareCalls: ToolCallTiming[] = [];
		for (let c = 0; c < CHUNKS; c++) {
			const first = c % 2 === 0 ? gated : bare;
			const second = first === gated ? bare : gated;
			const a = toolCallTimings(await first.prompt(`chunk ${c + 1}`));
			const b = toolCallTimings(await second.prompt(`chunk ${c + 1}`));
			(first === gated ? gatedCalls : bareCalls).push(...a);
			(first === gated ? bareCalls : gatedCalls).push(...b);
		}
		const expected = CHUNKS * CALLS_PER_CHUNK;
		const problems = [
			...(gatedCalls.length !== expected
				? [`gated pi ran ${gatedCalls.length} calls, expected ${expected}`]
				: []),
			...(bareCalls.length !== expected
				? [`bare pi ran ${bareCalls.length} calls, expected ${expected}`]
				: []),
			...(gatedCalls.some((c) => c.isError) ? ["a gated call failed or was blocked"] : []),
			...(bareCalls.some((c) => c.isError) ? ["a bare call failed"] : []),
		];
		if (problems.length > 0) throw new Error(problems.join("; "));
		const g = summarize(gatedCalls.map((c) => c.ms));
		const b = summarize(bareCalls.map((c) => c.ms));
		const gFirst = summarize(gatedCalls.map((c) => c.firstUpdateMs).filter((ms) => !Number.isNaN(ms)));
		const bFirst = summarize(bareCalls.map((c) => c.firstUpdateMs).filter((ms) => !Number.isNaN(ms)));
		const audited = summarize(auditedLatencies(sandbox.agentDir, expected));
		const gatedMb = gated.residentMb();
		const bareMb = bare.residentMb();
		const forkCost = await spawnCostPerMb();
		return {
			figure: `3. Gate latency in real pi (RPC, ${expected} allowed \`echo N\` calls with vs without the gate, interleaved)`,
			measurements: [
				{
					label: "added latency per call (before the tool runs): median(gated) − median(bare)",
					value: gFirst.median - bFirst.median,
					unit: "ms",
					target: { op: "<=", value: 2 },
				},
				{
					label: "  whole call, start → end: median(gated) − median(bare)",
					value: g.median - b.median,
					unit: "ms",
				},
				{ label: "  per-call median with gate", value: g.median, unit: "ms" },
				{ label: "  per-call median without gate", value: b.median, unit: "ms" },
				{ label: "  gate's own decision time (audit latencyMs), median", value: audited.median, unit: "ms" },
				{ label: "  gate's own decision time (audit latencyMs), p99", value: audited.p99, unit: "ms" },
				{ label: "  pi resident memory with gate − without", value: gatedMb - bareMb, unit: "MB" },
				{ label: "  spawn cost per resident MB on this machine", value: forkCost * 1000, unit: "µs" },
			],
			notes: [
				"the gate runs between tool_execution_start and the tool's start (the bash tool sends an empty first update as it",
				"starts executing): that difference of medians is the latency the gate adds to a call (the target);",
				"the whole-call difference (start → tool_execution_end) also holds the bash spawn, which is slower in the gated",
				"process only because it is bigger: Node forks pi, and a fork costs more the more memory pi has resident (the",
				"bash grammar's wasm memory, ~35 MB, is most of it),",
				`pi has resident (gated ${gatedMb.toFixed(0)} MB, bare ${bareMb.toFixed(0)} MB): ${(gatedMb - bareMb).toFixed(0)} MB × ` +
					`${(forkCost * 1000).toFixed(0)} µs ≈ ${((gatedMb - bareMb) * forkCost).toFixed(2)} ms per bash call`,
				`with gate p90 ${g.p90.toFixed(2)} ms, p99 ${g.p99.toFixed(2)} ms; without p90 ${b.p90.toFixed(2)} ms, p99 ${b.p99.toFixed(2)} ms;` +
					` medians of the ${CHUNKS} chunks, with/without: ${chunkMedians(gatedCalls)} / ${chunkMedians(bareCalls)}`,
			],
		};
	} finally {
		await Promise.all(sessions.map((s) => s.close()));
		await sandbox.cleanup();
	}
}

/** ms per resident MB that spawning bash costs: the spawn probe with 0 and 150 MB extra resident memory. */
async function spawnCostPerMb(): Promise<number> {
	const probe = fileURLToPath(new URL("./spawn-cost-probe.ts", import.meta.url));
	const small = await runNodeScript(probe, ["0"]);
	const big = await runNodeScript(probe, ["150"]);
	const ms = numberAt(big.json, "spawnMs") - numberAt(small.json, "spawnMs");
	const mb = numberAt(big.json, "residentMb") - numberAt(small.json, "residentMb");
	return ms / mb;
}

function chunkMedians(calls: readonly ToolCallTiming[]): string {
	const out: string[] = [];
	for (let i = 0; i < calls.length; i += CALLS_PER_CHUNK) {
		out.push(median(calls.slice(i, i + CALLS_PER_CHUNK).map((c) => c.ms)).toFixed(1));
	}
	return out.join(" ");
}
