/**
 * Figure 2: cold start, each sample in a fresh Node process loading the built extension (dist/), as pi does:
 * the bash grammar (`loadBashParser`: module import, wasm runtime and grammar, first parse) and the 500-rule
 * policy (module import, then `loadPolicy`: read, JSONC parse, zod validation, rule compilation and indexing).
 * Reported only; the gate's whole import graph is printed too, as it explains figure 4.
 */
import { fileURLToPath } from "node:url";
import { createBenchWorld } from "./bench-world.ts";
import type { FigureResult } from "./report.ts";
import { numberAt, runNodeScript } from "./run-node.ts";
import { median } from "./stats.ts";

const PROBE = fileURLToPath(new URL("./cold-start-probe.ts", import.meta.url));
const RUNS = 5;

async function medians(args: readonly string[], keys: readonly string[]): Promise<Record<string, number>> {
	const samples: Record<string, number[]> = Object.fromEntries(keys.map((k) => [k, []]));
	for (let i = 0; i < RUNS; i++) {
		const { json } = await runNodeScript(PROBE, args);
		for (const key of keys) samples[key]?.push(numberAt(json, key));
	}
	return Object.fromEntries(keys.map((k) => [k, median(samples[k] ?? [])]));
}

export async function coldStartFigure(): Promise<FigureResult> {
	const world = createBenchWorld();
	try {
		const parser = await medians(["parser"], ["importMs", "loadMs", "firstParseMs", "secondParseMs"]);
		const policy = await medians(
			["policy", world.agentDir, world.project, world.home],
			["importMs", "loadMs", "secondLoadMs"],
		);
		const gate = await medians(["gate-imports"], ["entryMs", "gateMs"]);
		const gateAfterZod = await medians(["gate-imports", "zod-first"], ["zodMs", "gateMs"]);
		const parserTotal = (parser.importMs ?? 0) + (parser.loadMs ?? 0) + (parser.firstParseMs ?? 0);
		const policyTotal = (policy.importMs ?? 0) + (policy.loadMs ?? 0);
		return {
			figure: "2. Cold start (fresh Node process per sample, built dist/, medians of 5; reported, no target)",
			measurements: [
				{ label: "bash parser: import + loadBashParser + first parse", value: parserTotal, unit: "ms" },
				{
					label: "  import dist/classify/bash/bash-parser.js",
					value: parser.importMs ?? Number.NaN,
					unit: "ms",
				},
				{
					label: "  loadBashParser() (wasm runtime + grammar)",
					value: parser.loadMs ?? Number.NaN,
					unit: "ms",
				},
				{
					label: "  first parse (V8 compiles wasm lazily)",
					value: parser.firstParseMs ?? Number.NaN,
					unit: "ms",
				},
				{ label: "  second parse", value: parser.secondParseMs ?? Number.NaN, unit: "ms" },
				{ label: "500-rule policy: import + loadPolicy", value: policyTotal, unit: "ms" },
				{
					label: "  import dist/policy/load-policy.js (zod, jsonc)",
					value: policy.importMs ?? Number.NaN,
					unit: "ms",
				},
				{
					label: "  loadPolicy() (read, parse, validate, compile)",
					value: policy.loadMs ?? Number.NaN,
					unit: "ms",
				},
				{ label: "  loadPolicy() again, modules warm", value: policy.secondLoadMs ?? Number.NaN, unit: "ms" },
				{
					label: "gate module graph (session-gate.js), cold",
					value: gate.gateMs ?? Number.NaN,
					unit: "ms",
				},
				{ label: "  same with zod already loaded", value: gateAfterZod.gateMs ?? Number.NaN, unit: "ms" },
				{ label: "  zod alone", value: gateAfterZod.zodMs ?? Number.NaN, unit: "ms" },
			],
			notes: [
				"times measured inside the fresh process (Node start-up excluded); no compile cache; the gate loads the parser in the",
				"background at session_start, so its cost overlaps pi's own start-up (see figure 4 for what a whole run pays)",
			],
		};
	} finally {
		world.cleanup();
	}
}
