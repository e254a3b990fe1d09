/**
 * Per-agent limits (adr/0022). An `agents.<name>` section applies to an ask when any name on the asking
 * origin's path (root ← … ← asker) is that name, so a grandchild of a reviewer is still a reviewer. The names are
 * claimed by whoever starts a subagent, so a section only tightens: its deny rules and `deny` tiers deny before
 * anything can allow, and its ask rules and `ask` tiers ask a human even where a session grant, a whole-tree
 * grant, an allow rule or an authorizer link would approve. A parked approval lets such an ask through only when
 * the request it answered came from an origin with the same names and a human settled it (`decide.ts`): whoever
 * approved it knew who asked.
 */
import type { Origin } from "../origin/origin.ts";
import { modeRank, TIERS, type Tier, tierRank } from "../vocabulary/tier.ts";
import { type ConfigFileError, type ConfigIssue, configFileError } from "./config-error.ts";
import type { AgentSection, AgentTierSetting, EffectivePolicy, TierSetting } from "./effective-policy.ts";
import { buildRuleIndex } from "./policy-rule.ts";

/** The sections that apply to `origin`, in path order; none for an origin that is not a subagent. */
export function limitingSections(policy: EffectivePolicy, origin: Origin): AgentSection[] {
	if (origin.kind !== "subagent" || policy.agents.size === 0) return [];
	const sections: AgentSection[] = [];
	for (const name of new Set([...origin.path, origin.name])) {
		const section = policy.agents.get(name);
		if (section) sections.push(section);
	}
	return sections;
}

/** Limited policies by the policy they limit, then by the names that limit it: compiled once per config load. */
const limitedPolicies = new WeakMap<EffectivePolicy, Map<string, EffectivePolicy>>();

/**
 * The policy an ask from `origin` is decided by: `policy` itself when no section applies, else `policy` with the
 * sections' deny rules and command tiers added, their tier modes applied (an `ask` marked as the agent's), and
 * their ask rules in `limits`. A limited policy has no sections left, so limiting it again changes nothing.
 */
export function policyForOrigin(policy: EffectivePolicy, origin: Origin): EffectivePolicy {
	const sections = limitingSections(policy, origin);
	if (sections.length === 0) return policy;
	// Sanitized labels hold no control characters, so a newline cannot join two names into a third.
	const key = sections.map((section) => section.name).join("\n");
	let byNames = limitedPolicies.get(policy);
	if (byNames === undefined) {
		byNames = new Map();
		limitedPolicies.set(policy, byNames);
	}
	const cached = byNames.get(key);
	if (cached) return cached;
	const limited = limitPolicy(policy, sections);
	byNames.set(key, limited);
	return limited;
}

function limitPolicy(policy: EffectivePolicy, sections: readonly AgentSection[]): EffectivePolicy {
	const agentRules = sections.flatMap((section) => section.rules);
	const rules = [...policy.rules, ...agentRules.filter((rule) => rule.ref.action === "deny")];
	const settings = sections.flatMap((section) =>
		section.tiers.map((setting) => ({ ...setting, agent: section.name })),
	);
	return {
		...policy,
		rules,
		index: buildRuleIndex(rules),
		tiers: limitTiers(policy.tiers, settings),
		commandTiers: [...policy.commandTiers, ...sections.flatMap((section) => section.commandTiers)],
		agents: new Map(),
		limits: {
			names: sections.map((section) => section.name),
			ask: buildRuleIndex(agentRules.filter((rule) => rule.ref.action === "ask")).ask,
		},
	};
}

/**
 * Each tier takes the strictest agent setting at or below it, when that is stricter than its mode, or an `ask`
 * where the top level asks too: the agent's ask is the stronger one (only a human answers it).
 */
function limitTiers(
	tiers: Readonly<Record<Tier, TierSetting>>,
	settings: readonly (AgentTierSetting & { readonly agent: string })[],
): Record<Tier, TierSetting> {
	const limited = { ...tiers };
	for (const tier of TIERS) {
		for (const setting of settings) {
			if (tierRank(setting.tier) > tierRank(tier)) continue;
			const current = limited[tier];
			const stricter = modeRank(setting.mode) > modeRank(current.mode);
			const strongerAsk = setting.mode === "ask" && current.mode === "ask" && current.ref.agent === undefined;
			if (!stricter && !strongerAsk) continue;
			limited[tier] = {
				mode: setting.mode,
				ref: {
					surface: "tier",
					pattern: tier,
					action: setting.mode,
					reason: null,
					origin: setting.origin,
					agent: setting.agent,
				},
			};
		}
	}
	return limited;
}

/**
 * An agents section's tier setting looser than the top-level mode of its tier (an `ask` where the user or project
 * file denies) would do nothing, and reads as if it allowed more: a config error at its JSON path, per file.
 */
export function looserAgentTiers(policy: EffectivePolicy): ConfigFileError[] {
	const issuesByFile = new Map<string, ConfigIssue[]>();
	for (const section of policy.agents.values()) {
		for (const setting of section.tiers) {
			const top = policy.tiers[setting.tier];
			if (modeRank(setting.mode) >= modeRank(top.mode)) continue;
			const by = top.ref.origin;
			const { file, jsonPath, line } = setting.origin;
			const issues = issuesByFile.get(file) ?? [];
			issues.push({
				jsonPath,
				line,
				problem: `"${setting.mode}" is looser than the ${setting.tier} tier's top-level "${top.mode}" (${by.jsonPath} in ${by.file}); an agents section may only tighten`,
			});
			issuesByFile.set(file, issues);
		}
	}
	return policy.sources.flatMap((source) => {
		const [first, ...rest] = issuesByFile.get(source.file) ?? [];
		return first ? [configFileError(source.file, source.scope, [first, ...rest])] : [];
	});
}

/**
 * Whether a parked approval may answer an ask of `policy` (limited for its origin): always without limits; under
 * limits only when the parked request came from an origin whose path held every limiting name.
 */
export function approvalFitsLimits(policy: EffectivePolicy, askerPath: readonly string[]): boolean {
	return policy.limits === null || policy.limits.names.every((name) => askerPath.includes(name));
}
