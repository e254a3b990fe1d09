/**
 * Run in a fresh Node process by figure 2 (one job per process, so every import is cold):
 *   node bench/cold-start-probe.ts parser
 *   node bench/cold-start-probe.ts policy <agentDir> <cwd> <homeDir>
 *   node bench/cold-start-probe.ts gate-imports [zod-first]
 * Loads the built extension (dist/), as pi does, and prints one JSON line of millisecond timings.
 */
import { performance } from "node:perf_hooks";
import type * as BashParserModule from "../src/classify/bash/bash-parser.ts";
import type * as LoadPolicyModule from "../src/policy/load-policy.ts";
import { FIVE_COMMAND_CHAIN_TEXT } from "./chain-text.ts";

const DIST = new URL("../dist/", import.meta.url);

async function importDist(relative: string): Promise<Record<string, unknown>> {
	const module: unknown = await import(new URL(relative, DIST).href);
	if (typeof module !== "object" || module === null) throw new Error(`dist/${relative} is not a module`);
	return { ...module };
}

function ms(since: number): number {
	return performance.now() - since;
}

async function parser(): Promise<Record<string, number>> {
	let t = performance.now();
	const module = await importDist("classify/bash/bash-parser.js");
	const importMs = ms(t);
	if (typeof module.loadBashParser !== "function") throw new Error("dist has no loadBashParser");
	const load = module.loadBashParser as typeof BashParserModule.loadBashParser;
	t = performance.now();
	const bash = await load();
	const loadMs = ms(t);
	t = performance.now();
	const first = bash.parse(FIVE_COMMAND_CHAIN_TEXT);
	const firstParseMs = ms(t);
	t = performance.now();
	bash.parse(FIVE_COMMAND_CHAIN_TEXT);
	const secondParseMs = ms(t);
	if (!first.ok) throw new Error(`the chain did not parse: ${first.reason}`);
	return { importMs, loadMs, firstParseMs, secondParseMs };
}

async function policy(agentDir: string, cwd: string, homeDir: string): Promise<Record<string, number>> {
	let t = performance.now();
	const module = await importDist("policy/load-policy.js");
	const importMs = ms(t);
	if (typeof module.loadPolicy !== "function") throw new Error("dist has no loadPolicy");
	const loadPolicy = module.loadPolicy as typeof LoadPolicyModule.loadPolicy;
	t = performance.now();
	const loaded = loadPolicy({ agentDir, cwd, homeDir, projectTrusted: false });
	const loadMs = ms(t);
	if (loaded.configErrors.length > 0) throw new Error(loaded.configErrors[0]?.message);
	t = performance.now();
	loadPolicy({ agentDir, cwd, homeDir, projectTrusted: false });
	const secondLoadMs = ms(t);
	return { importMs, loadMs, secondLoadMs, rules: loaded.rules.length };
}

/** The gate's whole module graph, as `session_start` loads it; with `zodFirst`, zod is already loaded. */
async function gateImports(zodFirst: boolean): Promise<Record<string, number>> {
	let t = performance.now();
	if (zodFirst) await import("zod");
	const zodMs = ms(t);
	t = performance.now();
	await importDist("index.js");
	const entryMs = ms(t);
	t = performance.now();
	await importDist("gate/session-gate.js");
	return { zodMs, entryMs, gateMs: ms(t) };
}

const [job, ...args] = process.argv.slice(2);
const run =
	job === "parser"
		? parser()
		: job === "policy"
			? policy(args[0] ?? "", args[1] ?? "", args[2] ?? "")
			: job === "gate-imports"
				? gateImports(args[0] === "zod-first")
				: Promise.reject(new Error(`unknown job ${job}`));
run.then(
	(result) => process.stdout.write(`${JSON.stringify(result)}\n`),
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
		process.exitCode = 1;
	},
);
