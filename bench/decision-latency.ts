/**
 * Figure 1: one decision for a five-command bash chain against the 500-rule policy, after warm-up, parse
 * included — `classifyAction` (real tree-sitter parser, real path resolution in a real project directory) then
 * `decide`. Also the rule-matching part alone against the naive matcher, on the same policy and action.
 */
import { classifyAction } from "../src/classify/classify-action.ts";
import { decide } from "../src/policy/decide.ts";
import { createPolicyStore } from "../src/policy/load-policy.ts";
import { FIVE_COMMAND_CHAIN, prepareDecision } from "./decision-setup.ts";
import type { FigureResult } from "./report.ts";
import { runRuleMatchingBench } from "./rule-matching.ts";
import { summarize } from "./stats.ts";
import { timeCalls } from "./time-calls.ts";

const ITERATIONS = 20_000;
const WARMUP = 3_000;

export async function decisionLatencyFigure(): Promise<FigureResult> {
	const setup = await prepareDecision();
	try {
		const { call, deps, policy, context } = setup;
		const whole = summarize(
			timeCalls(ITERATIONS, WARMUP, () => decide(classifyAction(call, deps), policy, context).mode),
		);
		const classifyOnly = summarize(timeCalls(ITERATIONS / 2, WARMUP, () => classifyAction(call, deps)));
		const parseOnly = summarize(
			timeCalls(ITERATIONS / 2, WARMUP, () => setup.bash.parse(FIVE_COMMAND_CHAIN)),
		);
		const store = createPolicyStore({
			agentDir: setup.world.agentDir,
			cwd: setup.world.project,
			homeDir: setup.world.home,
			isProjectTrusted: () => false,
		});
		const storeCurrent = summarize(timeCalls(ITERATIONS / 2, WARMUP, () => store.current()));
		const matching = runRuleMatchingBench({
			input: { ...setup, homeDir: setup.world.home },
			iterations: 10_000,
		});
		const decision = decide(setup.action, policy, context);
		return {
			figure:
				"1. Decision latency: 5-command bash chain vs 500-rule policy (classify incl. tree-sitter parse + decide)",
			measurements: [
				{
					label: "classify + decide, median",
					value: whole.median,
					unit: "µs",
					target: { op: "<=", value: 100 },
				},
				{ label: "classify + decide, p99", value: whole.p99, unit: "µs", target: { op: "<=", value: 250 } },
				{
					label: "rule matching: naive (compiled per call) / indexed, medians",
					value: matching.ratio,
					unit: "×",
					target: { op: ">=", value: 10 },
				},
				{ label: "  of which classifyAction, median", value: classifyOnly.median, unit: "µs" },
				{ label: "  of which tree-sitter parse + tree copy, median", value: parseOnly.median, unit: "µs" },
				{ label: "  of which decide (indexed rules), median", value: matching.compiledMedianUs, unit: "µs" },
				{ label: "rule matching naive, median", value: matching.naiveMedianUs, unit: "µs" },
				{
					label: "policy store current() per call (2 stats), median",
					value: storeCurrent.median,
					unit: "µs",
				},
			],
			notes: [
				`chain: ${FIVE_COMMAND_CHAIN}`,
				`${setup.policy.rules.length} rules loaded from ${setup.world.configFile} by loadPolicy; decision: ${decision.mode} ` +
					`(${setup.action.parts.length} parts, tier ${setup.action.tier}); naive scan found ${matching.naiveMatches} matches`,
				`${ITERATIONS} timed calls after ${WARMUP} warm-up; per-call hrtime; p99 is sensitive to GC and to other load on the 2 cores`,
				`classify + decide p90 ${whole.p90.toFixed(1)} µs, max ${whole.max.toFixed(0)} µs; decide p99 ${matching.compiledP99Us.toFixed(1)} µs`,
			],
		};
	} finally {
		setup.world.cleanup();
	}
}
