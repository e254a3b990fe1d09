import type { EffectivePolicy } from "../policy/effective-policy.ts";

/**
 * Tools a `tool` deny rule forbids outright. Hiding them before the run saves the model a wasted turn;
 * the gate still denies a hidden tool if something calls it anyway.
 */
export function hiddenTools(active: readonly string[], policy: EffectivePolicy): Set<string> {
	const denyToolRules = policy.rules.filter(
		(rule) => rule.kind === "wildcard" && rule.surface === "tool" && rule.ref.action === "deny",
	);
	const hidden = new Set<string>();
	for (const name of active) {
		if (denyToolRules.some((rule) => rule.kind === "wildcard" && rule.matcher.test(name))) hidden.add(name);
	}
	return hidden;
}
