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

export interface ToolsForRun {
	/** The tool list to give the run; `null` when the selected list stands as it is. */
	readonly tools: string[] | null;
	/** What the gate is keeping hidden now (pass it back in on the next run). */
	readonly hidden: ReadonlySet<string>;
}

/**
 * The tools for the next run: denied tools are taken out, and tools the gate took out earlier come back once no
 * deny rule forbids them. pi keeps a removed tool removed for the rest of the session, so without this a
 * fixed config would never get the tool back.
 */
export function toolsForRun(
	selected: readonly string[],
	hiddenBefore: ReadonlySet<string>,
	policy: EffectivePolicy,
): ToolsForRun {
	const candidates = [...selected, ...[...hiddenBefore].filter((name) => !selected.includes(name))];
	const hidden = hiddenTools(candidates, policy);
	const tools = candidates.filter((name) => !hidden.has(name));
	const unchanged = tools.length === selected.length && tools.every((name, i) => name === selected[i]);
	return { tools: unchanged ? null : tools, hidden };
}
