/**
 * Timing figures for the classifier (not a test): cold start of the bash grammar, parse+walk and full
 * classifyAction of a five-command chain. Run with Node 22: `node test/classify/measure-classify.ts`.
 */
import { performance } from "node:perf_hooks";
import { loadBashParser } from "../../src/classify/bash/bash-parser.ts";
import { findBashCommands } from "../../src/classify/bash/bash-walk.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";

const COMMAND = "cd src && git status --short | grep -v foo; npm run build > out.log 2>&1 && rm -rf dist/tmp";
const ITERATIONS = 20_000;

function median(run: () => void): number {
	for (let i = 0; i < 2_000; i++) run();
	const samples = new Float64Array(ITERATIONS);
	for (let i = 0; i < ITERATIONS; i++) {
		const started = performance.now();
		run();
		samples[i] = (performance.now() - started) * 1000;
	}
	samples.sort();
	return samples[ITERATIONS / 2] ?? Number.NaN;
}

const coldStarted = performance.now();
const bash = await loadBashParser();
const coldMs = performance.now() - coldStarted;
const cwd = process.cwd();
const parseWalk = median(() => {
	const parsed = bash.parse(COMMAND);
	if (parsed.ok) findBashCommands(parsed.root, COMMAND, { known: true, dir: cwd }, bash, "/home/user");
});
const deps = {
	bash,
	extraCommandTiers: [],
	toolTiers: {},
	toolAnnotations: () => undefined,
	homeDir: "/home/user",
	agentDir: "/home/user/.pi/agent",
};
const classify = median(() => classifyAction({ tool: "bash", input: { command: COMMAND }, cwd }, deps));
console.log(
	JSON.stringify({
		node: process.version,
		coldStartMs: Number(coldMs.toFixed(1)),
		grammarLoadMs: Number(bash.loadMs.toFixed(1)),
		parseWalkMedianUs: Number(parseWalk.toFixed(1)),
		classifyActionMedianUs: Number(classify.toFixed(1)),
	}),
);
