/**
 * A rule's `examples` (adr/0019): calls the rule says it matches and does not match. Each is classified as the
 * gate classifies a call — a `command` example is a bash program read by the real grammar, a `tool` example a
 * tool name, a path example the path of a read or write tool call — and the rule answers the question the
 * decision asks of it (policy-rule.ts): does a deny or ask rule MATCH some part, does an allow rule COVER every
 * part. The loader tests every example against its rule; `check` also tests each `match` example against the
 * whole policy.
 */
import type { ActionPart, ClassifiedAction, ToolCall } from "../classify/action.ts";
import type { BashParser } from "../classify/bash/bash-parser.ts";
import { classifyAction } from "../classify/classify-action.ts";
import type { Origin } from "../origin/origin.ts";
import type { DecisionMode } from "../vocabulary/tier.ts";
import { type ConfigFileError, type ConfigIssue, configFileError } from "./config-error.ts";
import type { RuleSurface } from "./config-schema.ts";
import { type Decision, decide } from "./decide.ts";
import type { EffectivePolicy } from "./effective-policy.ts";
import {
	buildRuleIndex,
	findCoveringAllowRule,
	findMatchingRule,
	type PolicyRule,
	type RuleExample,
	type RuleRef,
} from "./policy-rule.ts";

/** What classifying an example needs: the bash grammar, and pi's agent dir (the classifier knows the gate's files by it). */
export interface ExampleClassifier {
	readonly bash: BashParser;
	readonly agentDir: string;
}

/**
 * The call an example stands for. A path example is the read tool's path, or the write tool's for a `write`
 * rule: `path` and `outside-cwd` rules apply to reads and writes alike, so a read asks them the same question.
 */
export function exampleCall(surface: RuleSurface, text: string, cwd: string): ToolCall {
	switch (surface) {
		case "command":
			return { tool: "bash", input: { command: text }, cwd };
		case "tool":
			return { tool: text, input: {}, cwd };
		case "write":
			return { tool: "write", input: { path: text, content: "" }, cwd };
		case "read":
		case "path":
		case "outside-cwd":
			return { tool: "read", input: { path: text }, cwd };
	}
}

/**
 * Every example of the policy's rules that its rule contradicts, as one config error per file, each problem at
 * the example's JSON path. Rules a merge dropped (a project file's allow) take part in no decision and are not
 * tested.
 */
export function failingRuleExamples(
	policy: EffectivePolicy,
	classifier: ExampleClassifier,
): ConfigFileError[] {
	const { cwd, homeDir } = policy.context;
	const readsRunUnasked = policy.tiers.read.mode === "auto";
	const classify = (call: ToolCall): ClassifiedAction =>
		classifyAction(call, {
			bash: classifier.bash,
			// With the operator's tier settings, as the session classifies: a rule answers for the call it would see.
			extraCommandTiers: policy.commandTiers.map((entry) => ({
				pattern: entry.matcher.pattern,
				tier: entry.tier,
			})),
			toolTiers: Object.fromEntries([...policy.toolTiers].map(([tool, assigned]) => [tool, assigned.tier])),
			toolAnnotations: () => undefined,
			homeDir,
			agentDir: classifier.agentDir,
		});
	const issuesByFile = new Map<string, ConfigIssue[]>();
	const agentRules = [...policy.agents.values()].flatMap((section) => section.rules);
	for (const rule of [...policy.rules, ...agentRules]) {
		for (const example of rule.examples) {
			const problem = exampleProblem(rule, example, classify, cwd, readsRunUnasked);
			if (problem === null) continue;
			const { file, jsonPath, line } = example.origin;
			const issues = issuesByFile.get(file) ?? [];
			issues.push({ jsonPath, line, problem });
			issuesByFile.set(file, issues);
		}
	}
	return policy.sources.flatMap((source) => {
		const [first, ...rest] = issuesByFile.get(source.file) ?? [];
		return first ? [configFileError(source.file, source.scope, [first, ...rest])] : [];
	});
}

function exampleProblem(
	rule: PolicyRule,
	example: RuleExample,
	classify: (call: ToolCall) => ClassifiedAction,
	cwd: string,
	readsRunUnasked: boolean,
): string | null {
	const action = classify(exampleCall(rule.surface, example.text, cwd));
	const answer = ruleAnswer(rule, action, cwd, readsRunUnasked);
	if (answer.holds === (example.expect === "match")) return null;
	const { ref } = rule;
	const [verb, verbs] = ref.action === "allow" ? ["cover", "covers"] : ["match", "matches"];
	const subject = `the ${ref.action} rule ${ref.surface} ${JSON.stringify(ref.pattern)}`;
	const shown = JSON.stringify(example.text);
	// In a call of several parts, name the one that decided: the part left uncovered, or the part matched.
	const part = action.parts.length > 1 && answer.part !== undefined ? describePart(answer.part) : null;
	if (example.expect === "match") {
		return `${subject} does not ${verb} its example ${shown}${part === null ? "" : `: ${part} is not covered`}`;
	}
	return `${subject} ${verbs} ${shown}, an example it must not ${verb}${part === null ? "" : ` (it matches ${part})`}`;
}

interface RuleAnswer {
	/** The deny or ask rule matches a part; the allow rule covers every part. */
	readonly holds: boolean;
	/** The part that decided: the one a deny or ask matches, or the first an allow does not cover. */
	readonly part: ActionPart | undefined;
}

function ruleAnswer(
	rule: PolicyRule,
	action: ClassifiedAction,
	cwd: string,
	readsRunUnasked: boolean,
): RuleAnswer {
	const index = buildRuleIndex([rule])[rule.ref.action];
	if (rule.ref.action === "allow") {
		const part = action.parts.find(
			(p) => findCoveringAllowRule(index, action, p, cwd, readsRunUnasked) === null,
		);
		return { holds: part === undefined, part };
	}
	const part = action.parts.find((p) => findMatchingRule(index, action, p, cwd) !== null);
	return { holds: part !== undefined, part };
}

function describePart(part: ActionPart): string {
	const text = part.command?.text ?? part.paths[0]?.typed ?? "the call";
	return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/** The modes the whole policy may give a `match` example without contradicting the rule it belongs to. */
const AGREEING_MODES: Readonly<Record<RuleRef["action"], readonly DecisionMode[]>> = {
	allow: ["auto"],
	// A deny elsewhere is stricter than the ask: the example is still not run unasked.
	ask: ["ask", "deny"],
	deny: ["deny"],
};

/** A `match` example the whole policy decides otherwise than its rule says, e.g. an allow's example that still asks. */
export interface OverruledExample {
	readonly rule: RuleRef;
	readonly example: RuleExample;
	readonly decision: Decision;
}

/**
 * The `match` examples the whole policy overrules, for `check`: an allow rule's example that is refused or
 * asks (another rule, a tier above the grant ceiling, a guarded path), or an ask rule's that runs unasked.
 * `notMatch` examples say what one rule does not do, which other rules may: they are not tested here.
 */
export function overruledExamples(
	policy: EffectivePolicy,
	classify: (call: ToolCall) => ClassifiedAction,
	origin: Origin,
): OverruledExample[] {
	const overruled: OverruledExample[] = [];
	for (const rule of policy.rules) {
		for (const example of rule.examples) {
			if (example.expect !== "match") continue;
			const action = classify(exampleCall(rule.surface, example.text, policy.context.cwd));
			const decision = decide(action, policy, { origin, grants: [], parkedApproval: null });
			if (!AGREEING_MODES[rule.ref.action].includes(decision.mode)) {
				overruled.push({ rule: rule.ref, example, decision });
			}
		}
	}
	return overruled;
}
