/**
 * Rule matching cost: a 5-command bash chain touching 3 paths, decided against 500 mixed rules,
 * (a) with the compiled, indexed policy (`decide`), and (b) the naive way — build every RegExp / picomatch
 * matcher on every call and scan every rule. Run directly: `node bench/rule-matching.ts`.
 */
import { pathToFileURL } from "node:url";
import picomatch from "picomatch";
import type { ActionPart, ClassifiedAction, PathTouch } from "../src/classify/action.ts";
import { buildEffectivePolicy } from "../src/policy/build-effective-policy.ts";
import type { ConfigRule } from "../src/policy/config-schema.ts";
import { decide } from "../src/policy/decide.ts";
import type { DecideContext } from "../src/policy/decision.ts";
import { parseConfigText } from "../src/policy/parse-config-text.ts";

export interface RuleMatchingBenchResult {
	readonly compiledMedianUs: number;
	readonly compiledP99Us: number;
	readonly naiveMedianUs: number;
	readonly naiveP99Us: number;
	/** naive median / compiled median. */
	readonly ratio: number;
}

const HOME = "/home/bench";
const CWD = "/home/bench/project";
const WORDS = [
	"git",
	"npm",
	"pnpm",
	"cargo",
	"go",
	"make",
	"docker",
	"kubectl",
	"python",
	"node",
	"ls",
	"cat",
	"grep",
	"sed",
	"awk",
	"find",
	"curl",
	"wget",
	"ssh",
	"rsync",
	"tar",
	"zip",
	"cp",
	"mv",
	"mkdir",
	"touch",
	"echo",
	"jq",
	"yq",
	"terraform",
];
const SUBS = [
	"status",
	"log",
	"diff",
	"install",
	"run",
	"build",
	"test",
	"push",
	"pull",
	"apply",
	"get",
	"exec",
];
const DIRS = ["src", "test", "docs", "lib", "scripts", "config", "build", "dist", "vendor", "tmp"];

function benchRules(count: number): ConfigRule[] {
	const rules: ConfigRule[] = [];
	const actions = ["allow", "ask", "deny"] as const;
	for (let i = 0; rules.length < count; i++) {
		const action = actions[i % 3] ?? "ask";
		const word = WORDS[i % WORDS.length] ?? "x";
		const sub = SUBS[(i * 7) % SUBS.length] ?? "y";
		const dir = DIRS[(i * 3) % DIRS.length] ?? "z";
		switch (i % 5) {
			case 0:
				rules.push({ surface: "command", pattern: `${word} ${sub}-${i} *`, action });
				break;
			case 1:
				rules.push({ surface: "command", pattern: `${word} --flag-${i}`, action });
				break;
			case 2:
				rules.push({ surface: "write", pattern: `${dir}/gen-${i}/**`, action });
				break;
			case 3:
				rules.push({ surface: "read", pattern: `/opt/data-${i}/**/*.json`, action });
				break;
			default:
				rules.push(
					i % 25 === 4
						? { surface: "command", pattern: `*--danger-${i}`, action: "deny" }
						: { surface: "tool", pattern: `mcp_tool_${i}`, action },
				);
		}
	}
	return rules;
}

function touch(access: "read" | "write", absolute: string): PathTouch {
	return {
		access,
		typed: absolute,
		absolute,
		resolved: absolute,
		outsideCwd: !absolute.startsWith(`${CWD}/`),
	};
}

function part(text: string, paths: PathTouch[] = []): ActionPart {
	const argv = text.split(" ");
	return {
		tier: "write",
		tierReason: "bench",
		command: { text, name: argv[0] ?? "", argv, literal: true, via: [] },
		paths,
	};
}

function benchAction(): ClassifiedAction {
	const parts = [
		part("git status --short"),
		part("npm run build", [touch("write", `${CWD}/dist/index.js`)]),
		part("grep -r TODO src", [touch("read", `${CWD}/src/a.ts`)]),
		part("cat package.json", [touch("read", `${CWD}/package.json`)]),
		part("jq .version package.json"),
	];
	return { tool: "bash", input: {}, cwd: CWD, tier: "write", parts, hash: "bench", preview: "bench" };
}

/** What a matcher built per call looks like: no reuse, no index, every rule every time. */
function naiveMatches(action: ClassifiedAction, rules: readonly ConfigRule[]): number {
	let matched = 0;
	for (const p of action.parts) {
		for (const rule of rules) {
			if (rule.surface === "tool") {
				if (wildcardRegExp(rule.pattern).test(action.tool)) matched++;
			} else if (rule.surface === "command") {
				if (p.command && wildcardRegExp(rule.pattern).test(p.command.text)) matched++;
			} else {
				const glob = rule.pattern.startsWith("~/") ? `${HOME}${rule.pattern.slice(1)}` : rule.pattern;
				const test = picomatch(glob, { dot: true });
				for (const t of p.paths) {
					const form = glob.startsWith("/") ? t.absolute : t.absolute.slice(CWD.length + 1);
					if (test(form)) matched++;
				}
			}
		}
	}
	return matched;
}

function wildcardRegExp(pattern: string): RegExp {
	const escapeLiteral = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
	const optional = pattern.endsWith(" *");
	const body = optional ? pattern.slice(0, -2) : pattern;
	return new RegExp(
		`^${body.split("*").map(escapeLiteral).join("[\\s\\S]*")}${optional ? "(?: [\\s\\S]*)?" : ""}$`,
	);
}

function timeUs(iterations: number, run: () => unknown): number[] {
	const samples: number[] = [];
	let sink = 0;
	for (let i = 0; i < iterations; i++) {
		const start = process.hrtime.bigint();
		if (run()) sink++;
		samples.push(Number(process.hrtime.bigint() - start) / 1000);
	}
	if (sink < 0) console.log(sink);
	return samples.sort((a, b) => a - b);
}

function percentile(sorted: readonly number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

export function runRuleMatchingBench(options: { iterations?: number } = {}): RuleMatchingBenchResult {
	const iterations = options.iterations ?? 5000;
	const rules = benchRules(500);
	const file = "/bench/config.json";
	const policy = buildEffectivePolicy({
		context: { cwd: CWD, homeDir: HOME },
		user: parseConfigText(JSON.stringify({ rules }), file, "user"),
		project: { status: "missing", file: "/bench/project.json", scope: "project" },
	});
	if (policy.configErrors.length > 0) throw new Error(policy.configErrors[0]?.message);
	const action = benchAction();
	const context: DecideContext = { origin: { kind: "human" }, grants: [], parkedApproval: false };
	timeUs(Math.min(500, iterations), () => decide(action, policy, context));
	const compiled = timeUs(iterations, () => decide(action, policy, context));
	const naiveIterations = Math.max(20, Math.floor(iterations / 20));
	timeUs(Math.min(20, naiveIterations), () => naiveMatches(action, rules));
	const naive = timeUs(naiveIterations, () => naiveMatches(action, rules));
	const round = (n: number): number => Math.round(n * 100) / 100;
	const compiledMedianUs = percentile(compiled, 0.5);
	const naiveMedianUs = percentile(naive, 0.5);
	return {
		compiledMedianUs: round(compiledMedianUs),
		compiledP99Us: round(percentile(compiled, 0.99)),
		naiveMedianUs: round(naiveMedianUs),
		naiveP99Us: round(percentile(naive, 0.99)),
		ratio: round(naiveMedianUs / compiledMedianUs),
	};
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	console.log(JSON.stringify(runRuleMatchingBench(), null, 2));
}
