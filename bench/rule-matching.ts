/**
 * Rule matching cost: the classified five-command chain decided against the 500-rule policy,
 * (a) with the compiled, indexed policy (`decide`), and (b) the naive way — build every wildcard RegExp and
 * picomatch matcher on every call and test every rule against every part. Figure 1 runs this on its own setup;
 * run it alone with `node bench/rule-matching.ts`.
 */
import { pathToFileURL } from "node:url";
import picomatch from "picomatch";
import type { ClassifiedAction, PathTouch } from "../src/classify/action.ts";
import type { ConfigRule } from "../src/policy/config-schema.ts";
import { type DecideContext, decide } from "../src/policy/decide.ts";
import type { EffectivePolicy } from "../src/policy/effective-policy.ts";
import { prepareDecision } from "./decision-setup.ts";
import { summarize } from "./stats.ts";
import { timeCalls } from "./time-calls.ts";

export interface RuleMatchingInput {
	readonly policy: EffectivePolicy;
	readonly rules: readonly ConfigRule[];
	readonly action: ClassifiedAction;
	readonly context: DecideContext;
	readonly homeDir: string;
}

export interface RuleMatchingBenchResult {
	readonly compiledMedianUs: number;
	readonly compiledP99Us: number;
	readonly naiveMedianUs: number;
	readonly naiveP99Us: number;
	/** naive median / compiled median. */
	readonly ratio: number;
	/** Rule matches the naive scan found (a sanity check that it really tests the rules). */
	readonly naiveMatches: number;
}

/** What a matcher built per call looks like: no reuse, no index, every rule against every part every time. */
export function naiveMatches(
	action: ClassifiedAction,
	rules: readonly ConfigRule[],
	homeDir: string,
): number {
	let matched = 0;
	for (const part of action.parts) {
		for (const rule of rules) {
			if (rule.surface === "tool") {
				if (wildcardRegExp(rule.pattern).test(action.tool)) matched++;
			} else if (rule.surface === "command") {
				if (part.command && wildcardRegExp(rule.pattern).test(part.command.text)) matched++;
			} else {
				const glob = rule.pattern.startsWith("~/") ? `${homeDir}${rule.pattern.slice(1)}` : rule.pattern;
				const test = picomatch(glob, { dot: true });
				for (const touch of part.paths) {
					if (!surfaceApplies(rule.surface, touch)) continue;
					const form = glob.startsWith("/") ? touch.absolute : relativeToCwd(action.cwd, touch.absolute);
					if (form !== null && test(form)) matched++;
				}
			}
		}
	}
	return matched;
}

function surfaceApplies(surface: "read" | "write" | "path" | "outside-cwd", touch: PathTouch): boolean {
	if (surface === "read") return touch.access === "read";
	if (surface === "write") return touch.access === "write";
	return surface === "path" || touch.outsideCwd;
}

function relativeToCwd(cwd: string, absolute: string): string | null {
	return absolute.startsWith(`${cwd}/`) ? absolute.slice(cwd.length + 1) : null;
}

function wildcardRegExp(pattern: string): RegExp {
	const escapeLiteral = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
	const optional = pattern.endsWith(" *");
	const body = optional ? pattern.slice(0, -2) : pattern;
	return new RegExp(
		`^${body.split("*").map(escapeLiteral).join("[\\s\\S]*")}${optional ? "(?: [\\s\\S]*)?" : ""}$`,
	);
}

export function runRuleMatchingBench(options: {
	iterations?: number;
	input: RuleMatchingInput;
}): RuleMatchingBenchResult {
	const iterations = options.iterations ?? 5000;
	const { action, policy, context, rules, homeDir } = options.input;
	const compiled = summarize(
		timeCalls(iterations, Math.min(1000, iterations), () => decide(action, policy, context)),
	);
	const naiveIterations = Math.max(20, Math.floor(iterations / 50));
	const naive = summarize(timeCalls(naiveIterations, 10, () => naiveMatches(action, rules, homeDir)));
	return {
		compiledMedianUs: compiled.median,
		compiledP99Us: compiled.p99,
		naiveMedianUs: naive.median,
		naiveP99Us: naive.p99,
		ratio: naive.median / compiled.median,
		naiveMatches: naiveMatches(action, rules, homeDir),
	};
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const setup = await prepareDecision();
	try {
		const result = runRuleMatchingBench({ input: { ...setup, homeDir: setup.world.home } });
		console.log(JSON.stringify(result, null, 2));
	} finally {
		setup.world.cleanup();
	}
}
