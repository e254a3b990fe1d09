import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import type { BashParser } from "../classify/bash/bash-parser.ts";
import { classifyAction, type DelegationClass, type ToolAnnotations } from "../classify/classify-action.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { Tier } from "../vocabulary/tier.ts";

/**
 * Classification with the operator's tier assignments from the policy in force. Built per policy object
 * (the store returns the same object until a file changes), so the per-call cost is the classification.
 */
export function sessionClassifier(
	bash: BashParser,
	homeDir: string,
	agentDir: string,
	annotations: (tool: string) => ToolAnnotations | undefined,
	delegation: (call: ToolCall) => DelegationClass | null,
): (call: ToolCall, policy: EffectivePolicy) => ClassifiedAction {
	let forPolicy: EffectivePolicy | null = null;
	let toolTiers: Readonly<Record<string, Tier>> = {};
	let extraCommandTiers: readonly { pattern: string; tier: Tier }[] = [];
	return (call, policy) => {
		if (policy !== forPolicy) {
			forPolicy = policy;
			toolTiers = Object.fromEntries([...policy.toolTiers].map(([tool, a]) => [tool, a.tier]));
			extraCommandTiers = policy.commandTiers.map((c) => ({ pattern: c.matcher.pattern, tier: c.tier }));
		}
		return classifyAction(call, {
			bash,
			extraCommandTiers,
			toolTiers,
			toolAnnotations: annotations,
			homeDir,
			agentDir,
			delegation,
		});
	};
}
