/**
 * Merges the user file and the (trusted) project file into one compiled policy. The project file can only
 * tighten: its allow rules are dropped, its tier settings only tighten, its tool tiers only raise, and its
 * numbers and unanswered policy can only make waiting shorter or answers stricter.
 */

import { errorMessage } from "../vocabulary/error-message.ts";
import { DEFAULT_GRANT_CEILING, TIERS } from "../vocabulary/tier.ts";
import { compileWildcard } from "../vocabulary/wildcard-pattern.ts";
import { allowAboveCeilingWarnings } from "./ceiling-warnings.ts";
import { compileRule } from "./compile-rule.ts";
import { type ConfigFileError, configFileError } from "./config-error.ts";
import type { ConfigFileState } from "./config-file-state.ts";
import { UNANSWERED_POLICIES, type UnansweredPolicy } from "./config-schema.ts";
import {
	type AgentMatcher,
	type CommandTierRule,
	DEFAULT_DEFER_EXPIRY_HOURS,
	DEFAULT_DIALOG_TIMEOUT_SECONDS,
	type EffectivePolicy,
	type GrantCeiling,
	type PatternContext,
	type PolicySource,
	type PolicyWarning,
	type TierAssignment,
} from "./effective-policy.ts";
import { failClosedPolicy } from "./fail-closed-policy.ts";
import { formatJsonPath, type JsonPathSegments } from "./json-path.ts";
import type { ParsedConfig } from "./parse-config-text.ts";
import { builtInOrigin, type PolicyRule, type RuleOrigin } from "./policy-rule.ts";
import { buildRuleIndex } from "./rule-index.ts";
import { resolveTierModes, type TierOverride } from "./tier-modes.ts";

export interface PolicyInputs {
	readonly context: PatternContext;
	readonly user: ConfigFileState;
	readonly project: ConfigFileState;
}

export function buildEffectivePolicy(inputs: PolicyInputs): EffectivePolicy {
	const { context } = inputs;
	const files = [inputs.user, inputs.project];
	const sources: PolicySource[] = files.map((f) => ({
		scope: f.scope,
		file: f.file,
		state: f.status === "loaded" ? "loaded" : f.status,
	}));
	const errors: ConfigFileError[] = files.flatMap((f) => (f.status === "invalid" ? [f.error] : []));
	const loaded = files.filter((f): f is ParsedConfig => f.status === "loaded");
	const merged = new Merge(context.homeDir);
	for (const file of loaded) {
		const error = merged.add(file);
		if (error) errors.push(error);
	}
	const [firstError, ...moreErrors] = errors;
	if (firstError) return failClosedPolicy(context, sources, [firstError, ...moreErrors], merged.warnings);
	return merged.finish(context, sources);
}

class Merge {
	readonly warnings: PolicyWarning[] = [];
	private readonly homeDir: string;
	private readonly rules: PolicyRule[] = [];
	private readonly tierOverrides: TierOverride[] = [];
	private readonly commandTiers: CommandTierRule[] = [];
	private readonly toolTiers = new Map<string, TierAssignment>();
	private readonly toolTierFloors = new Map<string, TierAssignment>();
	private readonly agentAllow: AgentMatcher[] = [];
	private readonly agentDeny: AgentMatcher[] = [];
	private authorizerChain: readonly string[] = [];
	private unanswered: UnansweredPolicy | null = null;
	private dialogTimeoutSeconds: number | null = null;
	private deferExpiryHours: number | null = null;
	private grantCeiling: GrantCeiling | null = null;

	constructor(homeDir: string) {
		this.homeDir = homeDir;
	}

	/** Adds one valid file; returns a config error if a pattern cannot be compiled. */
	add(file: ParsedConfig): ConfigFileError | null {
		const { config, scope } = file;
		const originOf = (path: JsonPathSegments): RuleOrigin => ({
			file: file.file,
			jsonPath: formatJsonPath(path),
			line: file.lineOf(path),
		});
		const rules = config.rules ?? [];
		for (const [index, rule] of rules.entries()) {
			const origin = originOf(["rules", index]);
			if (scope === "project" && rule.action === "allow") {
				this.warn(origin, "ignored: a project file may only tighten, so its allow rules are dropped");
				continue;
			}
			try {
				this.rules.push(compileRule(rule, origin, this.rules.length, this.homeDir));
			} catch (error) {
				const problem = `pattern cannot be compiled: ${errorMessage(error)}`;
				return configFileError(file.file, scope, [
					{ jsonPath: formatJsonPath(["rules", index, "pattern"]), line: origin.line, problem },
				]);
			}
		}
		for (const tier of TIERS) {
			const mode = config.tiers?.[tier];
			if (mode !== undefined) this.tierOverrides.push({ tier, mode, origin: originOf(["tiers", tier]) });
		}
		for (const [index, entry] of (config.commandTiers ?? []).entries()) {
			this.commandTiers.push({
				matcher: compileWildcard(entry.pattern),
				tier: entry.tier,
				origin: originOf(["commandTiers", index]),
			});
		}
		const toolTarget = scope === "user" ? this.toolTiers : this.toolTierFloors;
		for (const [tool, tier] of Object.entries(config.toolTiers ?? {})) {
			toolTarget.set(tool, { tier, origin: originOf(["toolTiers", tool]) });
		}
		for (const action of ["allow", "deny"] as const) {
			const target = action === "allow" ? this.agentAllow : this.agentDeny;
			for (const [index, matcher] of (config.agentRules?.[action] ?? []).entries()) {
				target.push({
					kind: matcher.kind,
					name: matcher.name ?? null,
					action,
					origin: originOf(["agentRules", action, index]),
				});
			}
		}
		if (config.unanswered !== undefined)
			this.unanswered = stricterUnanswered(this.unanswered, config.unanswered);
		this.dialogTimeoutSeconds = smaller(this.dialogTimeoutSeconds, config.dialogTimeoutSeconds);
		this.deferExpiryHours = smaller(this.deferExpiryHours, config.deferExpiryHours);
		if (scope === "user") {
			this.authorizerChain = config.authorizerChain ?? [];
			if (config.grantCeiling) {
				this.grantCeiling = { ...config.grantCeiling, origin: originOf(["grantCeiling"]) };
			}
		}
		return null;
	}

	finish(context: PatternContext, sources: readonly PolicySource[]): EffectivePolicy {
		const { tiers, warnings: tierWarnings } = resolveTierModes(this.tierOverrides);
		const grantCeiling = this.grantCeiling ?? {
			tier: DEFAULT_GRANT_CEILING,
			reason: null,
			origin: builtInOrigin("grantCeiling"),
		};
		return {
			context,
			sources,
			configErrors: [],
			warnings: [
				...this.warnings,
				...tierWarnings,
				...allowAboveCeilingWarnings(this.rules, grantCeiling.tier),
			],
			rules: this.rules,
			index: buildRuleIndex(this.rules),
			tiers,
			commandTiers: this.commandTiers,
			toolTiers: this.toolTiers,
			toolTierFloors: this.toolTierFloors,
			agentRules: { allow: this.agentAllow, deny: this.agentDeny },
			authorizerChain: this.authorizerChain,
			unanswered: this.unanswered,
			dialogTimeoutSeconds: this.dialogTimeoutSeconds ?? DEFAULT_DIALOG_TIMEOUT_SECONDS,
			deferExpiryHours: this.deferExpiryHours ?? DEFAULT_DEFER_EXPIRY_HOURS,
			grantCeiling,
		};
	}

	private warn(origin: RuleOrigin, message: string): void {
		this.warnings.push({ file: origin.file, jsonPath: origin.jsonPath, line: origin.line, message });
	}
}

function stricterUnanswered(a: UnansweredPolicy | null, b: UnansweredPolicy): UnansweredPolicy {
	if (a === null) return b;
	return UNANSWERED_POLICIES.indexOf(a) >= UNANSWERED_POLICIES.indexOf(b) ? a : b;
}

function smaller(a: number | null, b: number | undefined): number | null {
	if (b === undefined) return a;
	return a === null ? b : Math.min(a, b);
}
