/**
 * Figure 4: what loading the gate costs a whole short pi run. `pi -p` (print mode) with a scripted model that
 * makes one bash call and answers; the same script with and without `-e dist/extension/index.js`, runs interleaved
 * (the order flips every pair), wall time from spawn to exit, medians compared.
 */
import { join } from "node:path";
import { writeScript } from "../test/harness/faux-script.ts";
import { EXTENSION_ENTRY, REPO_ROOT } from "../test/harness/paths.ts";
import { runPrint } from "../test/harness/print-run.ts";
import { createSandbox, type Sandbox } from "../test/harness/sandbox.ts";
import { type GateModules, gateModules } from "./module-graph.ts";
import type { FigureResult } from "./report.ts";
import { summarize } from "./stats.ts";

const RUNS = 15;
const EXPECTED = 'RESULTS: [{"tool":"bash","text":"hi\\n","isError":false}]';

async function timedRun(
	sandbox: Sandbox,
	gated: boolean,
	env: Readonly<Record<string, string>> = {},
): Promise<number> {
	const run = await runPrint({ sandbox, prompt: "say hi", extensions: gated ? [EXTENSION_ENTRY] : [], env });
	if (run.code !== 0 || !run.stdout.includes(EXPECTED)) {
		throw new Error(
			`a ${gated ? "gated" : "bare"} print run did not make its call (exit ${run.code}): ${run.stdout.slice(0, 300)} ${run.stderr.slice(-500)}`,
		);
	}
	return run.durationMs;
}

export async function loadCostFigure(): Promise<FigureResult> {
	const sandbox = await createSandbox();
	try {
		await writeScript(sandbox, {
			conversations: [
				{ turns: [{ calls: [{ tool: "bash", input: { command: "echo hi" } }] }, { echo: true }] },
			],
		});
		// One untimed run each: the first run of a process fills the OS file cache and jiti's transform cache.
		await timedRun(sandbox, false);
		await timedRun(sandbox, true);
		const gated: number[] = [];
		const bare: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			if (i % 2 === 0) {
				gated.push(await timedRun(sandbox, true));
				bare.push(await timedRun(sandbox, false));
			} else {
				bare.push(await timedRun(sandbox, false));
				gated.push(await timedRun(sandbox, true));
			}
		}
		const g = summarize(gated);
		const b = summarize(bare);
		const modules = await tracedModules(sandbox);
		return {
			figure: `4. Load cost on a whole short pi run (print mode, one bash call, ${RUNS} interleaved runs each)`,
			measurements: [
				{
					label: "added wall time: median(gated) − median(bare)",
					value: g.median - b.median,
					unit: "ms",
					target: { op: "<=", value: 100 },
				},
				{ label: "  median run with -e dist/extension/index.js", value: g.median, unit: "ms" },
				{ label: "  median run without", value: b.median, unit: "ms" },
				{ label: "  gate's own modules loaded on this run (dist/)", value: modules.gateModules, unit: "" },
			],
			notes: [
				"wall time from spawn to exit of `node cli.js -e <faux model> [-e dist/extension/index.js] --no-session -p`, no config file",
				`gated min/max ${g.min}/${g.max} ms, bare min/max ${b.min}/${b.max} ms`,
				...describeModules(modules),
			],
		};
	} finally {
		await sandbox.cleanup();
	}
}

/** One more gated run, untimed, with module resolution traced (see module-trace.ts). */
async function tracedModules(sandbox: Sandbox): Promise<GateModules> {
	const trace = join(sandbox.root, "module-trace.jsonl");
	await timedRun(sandbox, true, {
		NODE_OPTIONS: `--import=${join(REPO_ROOT, "bench", "module-trace.ts")}`,
		PPH_MODULE_TRACE: trace,
	});
	return gateModules(trace, join(REPO_ROOT, "dist"));
}

function describeModules(modules: GateModules): string[] {
	const first = modules.packages.filter((p) => p.loadedByGate).map((p) => p.name);
	const already = modules.packages.filter((p) => !p.loadedByGate);
	return [
		`packages the gate imports on this run: ${first.join(", ") || "none"} (first loaded by the gate)` +
			(already.length > 0
				? `; ${already.map((p) => `${p.name} (${p.modules} modules)`).join(", ")} imported too but already loaded by the scripted model extension, so its import cost is NOT in the difference above (see figure 2, "zod alone")`
				: ""),
	];
}
