/**
 * What figure 1 and the rule-matching comparison share: the benchmark world, the 500-rule policy loaded through
 * the real loader, the real bash parser, and the five-command chain both decide.
 */
import type { ClassifiedAction, ToolCall } from "../src/classify/action.ts";
import { type BashParser, loadBashParser } from "../src/classify/bash/bash-parser.ts";
import { type ClassifyDeps, classifyAction } from "../src/classify/classify-action.ts";
import type { ConfigRule } from "../src/policy/config-schema.ts";
import type { DecideContext } from "../src/policy/decide.ts";
import type { EffectivePolicy } from "../src/policy/effective-policy.ts";
import { loadPolicy } from "../src/policy/load-policy.ts";
import { benchRules } from "./bench-policy.ts";
import { type BenchWorld, createBenchWorld } from "./bench-world.ts";
import { FIVE_COMMAND_CHAIN_TEXT } from "./chain-text.ts";

export const FIVE_COMMAND_CHAIN = FIVE_COMMAND_CHAIN_TEXT;

export interface DecisionSetup {
	readonly world: BenchWorld;
	readonly policy: EffectivePolicy;
	readonly rules: readonly ConfigRule[];
	readonly bash: BashParser;
	readonly call: ToolCall;
	readonly deps: ClassifyDeps;
	readonly context: DecideContext;
	/** The chain classified once (for the rule-matching comparison). */
	readonly action: ClassifiedAction;
}

export async function prepareDecision(): Promise<DecisionSetup> {
	const world = createBenchWorld();
	const policy = loadPolicy({
		agentDir: world.agentDir,
		cwd: world.project,
		homeDir: world.home,
		projectTrusted: false,
	});
	if (policy.configErrors.length > 0) {
		world.cleanup();
		throw new Error(`the benchmark policy did not load: ${policy.configErrors[0]?.message ?? "?"}`);
	}
	if (policy.rules.length !== benchRules().length) {
		world.cleanup();
		throw new Error(`the benchmark policy has ${policy.rules.length} rules, expected ${benchRules().length}`);
	}
	const bash = await loadBashParser();
	const deps: ClassifyDeps = {
		bash,
		extraCommandTiers: policy.commandTiers.map((c) => ({ pattern: c.matcher.pattern, tier: c.tier })),
		toolTiers: Object.fromEntries([...policy.toolTiers].map(([tool, a]) => [tool, a.tier])),
		toolAnnotations: () => undefined,
		homeDir: world.home,
		agentDir: world.agentDir,
	};
	const call: ToolCall = { tool: "bash", input: { command: FIVE_COMMAND_CHAIN }, cwd: world.project };
	const action = classifyAction(call, deps);
	const context: DecideContext = { origin: { kind: "human" }, grants: [], parkedApproval: null };
	return { world, policy, rules: benchRules(), bash, call, deps, context, action };
}
