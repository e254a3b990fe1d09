/**
 * Figure 8: the read tier (adr/0003). Both sides of the proof, counted over the test corpora: the plain reads
 * that must stay `read` and the disguised writes, executions and connections that must not be. Then the bound on
 * classification work: the slowest of a set of hostile inputs (huge pipelines, deep nesting, thousands of words),
 * each the median of five runs after one warm-up.
 */
import { join } from "node:path";
import type { ToolCall } from "../src/classify/action.ts";
import { loadBashParser } from "../src/classify/bash/bash-parser.ts";
import { type ClassifyDeps, classifyAction } from "../src/classify/classify-action.ts";
import { attackCommands, READ_CORPUS } from "../test/classify/read-corpus.ts";
import { createBenchWorld } from "./bench-world.ts";
import type { FigureResult } from "./report.ts";
import { median } from "./stats.ts";

const HOSTILE_INPUTS: readonly (readonly [string, string])[] = [
	["1 MiB pipeline (ls|ls|…)", `${"ls|".repeat(262_144)}ls`],
	["200 KiB pipeline", `${"ls|".repeat(51_200)}ls`],
	["12 KiB pipeline", `${"ls|".repeat(3_072)}ls`],
	["64 KiB of words", `echo ${"a ".repeat(32_768)}`],
	["250 KiB heredoc", `cat > f <<'EOF'\n${"x".repeat(250 * 1024)}\nEOF`],
	["195 nested subshells", `${"( ".repeat(195)}rm x${" )".repeat(195)}`],
	["2 000 unclosed parentheses", "(".repeat(2_000)],
	["400 commands in a list", Array.from({ length: 400 }, (_, i) => `cat f${i}`).join("; ")],
	["10 nested bash -c", nestedBashC(10)],
	["2 000 command substitutions", `echo ${"$(ls)".repeat(2_000)}`],
];

function nestedBashC(levels: number): string {
	let command = "ls";
	for (let level = 0; level < levels; level++) {
		command = `bash -c $'${command.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
	}
	return command;
}

export async function readTierFigure(): Promise<FigureResult> {
	const world = createBenchWorld();
	try {
		const deps: ClassifyDeps = {
			bash: await loadBashParser(),
			extraCommandTiers: [],
			toolTiers: {},
			toolAnnotations: () => undefined,
			homeDir: world.home,
			// Where pi keeps it by default: the attack corpus names the gate's files as `~/.pi/agent/…`.
			agentDir: join(world.home, ".pi", "agent"),
		};
		const classify = (command: string) => {
			const call: ToolCall = { tool: "bash", input: { command }, cwd: world.project };
			return classifyAction(call, deps);
		};
		const readsKept = READ_CORPUS.filter((command) => classify(command).tier === "read").length;
		const attacks = attackCommands();
		const attacksCaught = attacks.filter(({ command }) => classify(command).tier !== "read").length;
		const classes = new Set(attacks.map((a) => a.attackClass)).size;
		const timings = HOSTILE_INPUTS.map(([label, command]) => {
			classify(command);
			const samples = Array.from({ length: 5 }, () => {
				const started = performance.now();
				const action = classify(command);
				return { ms: performance.now() - started, tier: action.tier };
			});
			return { label, ms: median(samples.map((s) => s.ms)), tier: samples[0]?.tier ?? "?" };
		});
		const worst = timings.reduce((a, b) => (b.ms > a.ms ? b : a));
		return {
			figure: "8. Read tier: proven reads kept, disguised actions caught, classification bounded",
			measurements: [
				{
					label: `read corpus classified read (of ${READ_CORPUS.length})`,
					value: readsKept,
					unit: "",
					target: { op: "==", value: READ_CORPUS.length },
				},
				{
					label: `attack corpus classified above read (of ${attacks.length})`,
					value: attacksCaught,
					unit: "",
					target: { op: "==", value: attacks.length },
				},
				{
					label: "slowest hostile input, classification median",
					value: worst.ms,
					unit: "ms",
					target: { op: "<=", value: 50 },
				},
			],
			notes: [
				`read/attack ratio: ${readsKept}/${READ_CORPUS.length} reads run unasked, ${attacksCaught}/${attacks.length} attacks in ${classes} classes ask or are refused`,
				...timings.map((t) => `${t.label}: ${t.ms.toFixed(1)} ms → ${t.tier}`),
			],
		};
	} finally {
		world.cleanup();
	}
}
