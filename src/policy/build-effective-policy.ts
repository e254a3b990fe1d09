/**
 * Merges the user file and the (trusted) project file into one compiled policy. The project file can only
 * tighten: its allow rules are dropped, its tier settings only tighten, its tool tiers only raise, and its
 * numbers and unanswered policy can only make waiting shorter or answers stricter. A file in force that is
 * invalid yields the fail-closed policy instead.
 */
import { resolve } from "node:path";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { DEFAULT_GRANT_CEILING, TIERS, type Tier, tierRank, withinCeiling } from "../vocabulary/tier.ts";
import { compileWildcard } from "../vocabulary/wildcard-pattern.ts";
import { looserAgentTiers } from "./agent-limits.ts";
import {
	type ConfigFileError,
	configFileError,
	formatJsonPath,
	type JsonPathSegments,
} from "./config-error.ts";
import type { ConfigFileState } from "./config-file.ts";
import { expandHome } from "./config-paths.ts";
import {
	type ConfigRule,
	type ConfigScope,
	FORWARD_WITH_UI,
	type ForwardedDialogKeys,
	type ForwardWithUI,
	type NotifyStyle,
	UNANSWERED_POLICIES,
	type UnansweredPolicy,
	type UserConfig,
} from "./config-schema.ts";
import {
	type AgentMatcher,
	type AgentSection,
	type AgentTierSetting,
	type CommandTierRule,
	DEFAULT_DEFER_EXPIRY_HOURS,
	DEFAULT_DIALOG_TIMEOUT_SECONDS,
	DEFAULT_FORWARD_WITH_UI,
	DEFAULT_FORWARDED_DIALOG_KEYS,
	DEFAULT_NOTIFY,
	type EffectivePolicy,
	type GrantCeiling,
	type PatternContext,
	type PolicySource,
	type PolicyWarning,
	type SandboxSettings,
	type TierAssignment,
	type TierSetting,
} from "./effective-policy.ts";
import type { ParsedConfig } from "./parse-config-text.ts";
import { relativeInside } from "./path-pattern.ts";
import {
	buildRuleIndex,
	builtInLocation,
	type ConfigLocation,
	compileRule,
	type PolicyRule,
	type RuleExample,
} from "./policy-rule.ts";
import { type ExampleClassifier, failingRuleExamples } from "./rule-examples.ts";
import { resolveTierModes, type TierOverride } from "./tier-settings.ts";

export interface PolicyInputs {
	readonly context: PatternContext;
	readonly user: ConfigFileState;
	readonly project: ConfigFileState;
	/** The managed layer (adr/0024): merged last, as a file that only tightens, with its own caps. */
	readonly managed: ConfigFileState;
	/**
	 * With it, every rule's `examples` are tested and a failing one makes the policy fail closed; without it (no
	 * bash grammar at hand) they are not tested, and the policy is what the rules say.
	 */
	readonly examples?: ExampleClassifier;
}

export function buildEffectivePolicy(inputs: PolicyInputs): EffectivePolicy {
	const { context } = inputs;
	const files = [inputs.user, inputs.project, inputs.managed];
	const sources: PolicySource[] = files.map((f) => ({
		scope: f.scope,
		file: f.file,
		state: f.status === "loaded" ? "loaded" : f.status,
	}));
	const errors: ConfigFileError[] = files.flatMap((f) => (f.status === "invalid" ? [f.error] : []));
	const loaded = files.filter((f): f is ParsedConfig => f.status === "loaded");
	const merged = new Merge(context);
	for (const file of loaded) {
		const error = merged.add(file);
		if (error) errors.push(error);
	}
	const [firstError, ...moreErrors] = errors;
	if (firstError) return failClosedPolicy(context, sources, [firstError, ...moreErrors], merged.warnings);
	const policy = merged.finish(context, sources);
	const [firstLooser, ...moreLooser] = looserAgentTiers(policy);
	if (firstLooser) return failClosedPolicy(context, sources, [firstLooser, ...moreLooser], policy.warnings);
	if (inputs.examples === undefined) return policy;
	const [firstFailing, ...moreFailing] = failingRuleExamples(policy, inputs.examples);
	if (firstFailing)
		return failClosedPolicy(context, sources, [firstFailing, ...moreFailing], policy.warnings);
	return policy;
}

/**
 * The policy while a config file in force is broken: every tier denies, nothing is granted. Stricter than any
 * valid configuration, so a typo can never open the gate wider than the operator meant.
 */
export function failClosedPolicy(
	context: PatternContext,
	sources: readonly PolicySource[],
	errors: readonly [ConfigFileError, ...ConfigFileError[]],
	warnings: readonly PolicyWarning[],
): EffectivePolicy {
	const [first] = errors;
	const origin = { file: first.file, jsonPath: first.jsonPath, line: first.line ?? 0 };
	const tiers = {} as Record<Tier, TierSetting>;
	for (const tier of TIERS) {
		tiers[tier] = {
			mode: "deny",
			ref: { surface: "tier", pattern: tier, action: "deny", reason: null, origin },
		};
	}
	return {
		context,
		sources,
		configErrors: errors,
		warnings,
		rules: [],
		index: buildRuleIndex([]),
		tiers,
		commandTiers: [],
		toolTiers: new Map(),
		toolTierFloors: new Map(),
		agentRules: { allow: [], deny: [] },
		agents: new Map(),
		limits: null,
		authorizerChain: [],
		defaultMode: null,
		allowedModes: null,
		allowSavedRules: false,
		unanswered: "deny",
		dialogTimeoutSeconds: DEFAULT_DIALOG_TIMEOUT_SECONDS,
		deferExpiryHours: DEFAULT_DEFER_EXPIRY_HOURS,
		grantCeiling: { tier: DEFAULT_GRANT_CEILING, reason: null, origin: builtInLocation("grantCeiling") },
		forwardedDialogKeys: DEFAULT_FORWARDED_DIALOG_KEYS,
		forwardWithUI: "parent-only",
		// Every call is blocked under this policy: no bash runs to be sandboxed.
		sandbox: DEFAULT_SANDBOX,
		notify: DEFAULT_NOTIFY,
	};
}

interface MutableAgentSection extends AgentSection {
	readonly rules: PolicyRule[];
	readonly tiers: AgentTierSetting[];
	readonly commandTiers: CommandTierRule[];
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
	private readonly agents = new Map<string, MutableAgentSection>();
	/** Position of the next rule over both files and every agents section: ties go to the earliest rule. */
	private ruleCount = 0;
	private authorizerChain: readonly string[] = [];
	private defaultMode: PermissionMode | null = null;
	private managedCeiling: GrantCeiling | null = null;
	private allowedModes: readonly PermissionMode[] | null = null;
	private allowedLinks: { readonly names: readonly string[]; readonly origin: ConfigLocation } | null = null;
	/** Where the managed layer forbids saved rules, or null. */
	private savedRulesForbidden: ConfigLocation | null = null;
	private unanswered: UnansweredPolicy | null = null;
	private dialogTimeoutSeconds: number | null = null;
	private deferExpiryHours: number | null = null;
	private grantCeiling: GrantCeiling | null = null;
	private forwardedDialogKeys: ForwardedDialogKeys = DEFAULT_FORWARDED_DIALOG_KEYS;
	private userForwardWithUI: ForwardWithUI = DEFAULT_FORWARD_WITH_UI;
	private managedForwardWithUI: ForwardWithUI | null = null;
	private sandbox: SandboxSettings = DEFAULT_SANDBOX;
	private notify: NotifyStyle = DEFAULT_NOTIFY;

	private readonly cwd: string;

	constructor(context: PatternContext) {
		this.homeDir = context.homeDir;
		this.cwd = context.cwd;
	}

	/** Adds one valid file; returns a config error if a pattern cannot be compiled. */
	add(file: ParsedConfig): ConfigFileError | null {
		const { config, scope } = file;
		const locationOf = (path: JsonPathSegments): ConfigLocation => ({
			file: file.file,
			jsonPath: formatJsonPath(path),
			line: file.lineOf(path),
		});
		const ruleError = this.compileRules(file, config.rules ?? [], [], null, this.rules);
		if (ruleError) return ruleError;
		for (const [name, section] of Object.entries(config.agents ?? {})) {
			const at = ["agents", name];
			const merged = this.agentSection(name);
			const sectionError = this.compileRules(file, section.rules ?? [], at, name, merged.rules);
			if (sectionError) return sectionError;
			for (const tier of TIERS) {
				const mode = section.tiers?.[tier];
				if (mode === undefined) continue;
				merged.tiers.push({ tier, mode, origin: locationOf([...at, "tiers", tier]) });
			}
			for (const [index, entry] of (section.commandTiers ?? []).entries()) {
				merged.commandTiers.push({
					matcher: compileWildcard(entry.pattern),
					tier: entry.tier,
					origin: locationOf([...at, "commandTiers", index]),
				});
			}
		}
		for (const tier of TIERS) {
			const mode = config.tiers?.[tier];
			if (mode !== undefined) this.tierOverrides.push({ tier, mode, origin: locationOf(["tiers", tier]) });
		}
		for (const [index, entry] of (config.commandTiers ?? []).entries()) {
			this.commandTiers.push({
				matcher: compileWildcard(entry.pattern),
				tier: entry.tier,
				origin: locationOf(["commandTiers", index]),
			});
		}
		const toolTarget = scope === "user" ? this.toolTiers : this.toolTierFloors;
		for (const [tool, tier] of Object.entries(config.toolTiers ?? {})) {
			toolTarget.set(tool, { tier, origin: locationOf(["toolTiers", tool]) });
		}
		for (const action of ["allow", "deny"] as const) {
			const target = action === "allow" ? this.agentAllow : this.agentDeny;
			for (const [index, matcher] of (config.agentRules?.[action] ?? []).entries()) {
				target.push({
					kind: matcher.kind,
					name: matcher.name ?? null,
					action,
					origin: locationOf(["agentRules", action, index]),
				});
			}
		}
		if (config.unanswered !== undefined)
			this.unanswered = stricterUnanswered(this.unanswered, config.unanswered);
		this.dialogTimeoutSeconds = smaller(this.dialogTimeoutSeconds, config.dialogTimeoutSeconds);
		this.deferExpiryHours = smaller(this.deferExpiryHours, config.deferExpiryHours);
		if (config.sandbox) this.sandbox = mergeSandbox(this.sandbox, config.sandbox, scope);
		if (scope === "user") {
			this.authorizerChain = config.authorizerChain ?? [];
			this.defaultMode = config.defaultMode ?? null;
			if (config.notify !== undefined) this.notify = config.notify;
			this.forwardedDialogKeys = config.forwardedDialogKeys ?? DEFAULT_FORWARDED_DIALOG_KEYS;
			this.userForwardWithUI = config.forwardWithUI ?? DEFAULT_FORWARD_WITH_UI;
			if (config.grantCeiling) {
				this.grantCeiling = { ...config.grantCeiling, origin: locationOf(["grantCeiling"]) };
			}
		}
		if (scope === "managed") {
			if (config.grantCeiling) {
				this.managedCeiling = { ...config.grantCeiling, origin: locationOf(["grantCeiling"]) };
			}
			this.allowedModes = config.allowedModes ?? null;
			if (config.allowedLinks)
				this.allowedLinks = { names: config.allowedLinks, origin: locationOf(["allowedLinks"]) };
			if (config.allowSavedRules === false) this.savedRulesForbidden = locationOf(["allowSavedRules"]);
			this.managedForwardWithUI = config.forwardWithUI ?? null;
		}
		return null;
	}

	/** The user's ceiling, never above the managed layer's (the managed one decides when it is lower). */
	private ceiling(): GrantCeiling {
		const user = this.grantCeiling ?? {
			tier: DEFAULT_GRANT_CEILING,
			reason: null,
			origin: builtInLocation("grantCeiling"),
		};
		const managed = this.managedCeiling;
		return managed && tierRank(managed.tier) < tierRank(user.tier) ? managed : user;
	}

	/** The user's chain without the links the managed layer does not allow (each dropped one is a warning). */
	private chain(): readonly string[] {
		const allowed = this.allowedLinks;
		if (allowed === null) return this.authorizerChain;
		for (const name of this.authorizerChain.filter((link) => !allowed.names.includes(link)))
			this.warn(
				allowed.origin,
				`the authorizer link "${name}" is not in the managed allowedLinks: it is skipped`,
			);
		return this.authorizerChain.filter((link) => allowed.names.includes(link));
	}

	/** The rules in force: without saved ones when the managed layer forbids them. */
	private rulesInForce(): PolicyRule[] {
		const forbidden = this.savedRulesForbidden;
		if (forbidden === null) return this.rules;
		const kept = this.rules.filter((rule) => rule.ref.saved === undefined);
		if (kept.length < this.rules.length)
			this.warn(
				forbidden,
				`${this.rules.length - kept.length} saved rule(s) ignored: the managed config forbids saved rules`,
			);
		return kept;
	}

	finish(context: PatternContext, sources: readonly PolicySource[]): EffectivePolicy {
		const { tiers, warnings: tierWarnings } = resolveTierModes(this.tierOverrides);
		const grantCeiling = this.ceiling();
		const rules = this.rulesInForce();
		const authorizerChain = this.chain();
		return {
			context,
			sources,
			configErrors: [],
			warnings: [...this.warnings, ...tierWarnings, ...allowAboveCeilingWarnings(rules, grantCeiling.tier)],
			rules,
			index: buildRuleIndex(rules),
			tiers,
			commandTiers: this.commandTiers,
			toolTiers: this.toolTiers,
			toolTierFloors: this.toolTierFloors,
			agentRules: { allow: this.agentAllow, deny: this.agentDeny },
			agents: this.agents,
			limits: null,
			authorizerChain,
			defaultMode: this.defaultMode,
			allowedModes: this.allowedModes,
			allowSavedRules: this.savedRulesForbidden === null,
			unanswered: this.unanswered,
			dialogTimeoutSeconds: this.dialogTimeoutSeconds ?? DEFAULT_DIALOG_TIMEOUT_SECONDS,
			deferExpiryHours: this.deferExpiryHours ?? DEFAULT_DEFER_EXPIRY_HOURS,
			grantCeiling,
			forwardedDialogKeys: this.forwardedDialogKeys,
			forwardWithUI: stricterForwardWithUI(this.userForwardWithUI, this.managedForwardWithUI),
			sandbox: this.sandbox,
			notify: this.notify,
		};
	}

	/**
	 * Compiles the rules of one list (`rules`, or `agents.<name>.rules` with `at` and `agent`) into `target`;
	 * returns a config error if a pattern cannot be compiled.
	 */
	private compileRules(
		file: ParsedConfig,
		rules: readonly ConfigRule[],
		at: JsonPathSegments,
		agent: string | null,
		target: PolicyRule[],
	): ConfigFileError | null {
		const locationOf = (path: JsonPathSegments): ConfigLocation => ({
			file: file.file,
			jsonPath: formatJsonPath(path),
			line: file.lineOf(path),
		});
		for (const [index, rule] of rules.entries()) {
			const origin = locationOf([...at, "rules", index]);
			if (file.scope === "project" && rule.action === "allow") {
				this.warn(origin, "ignored: a project file may only tighten, so its allow rules are dropped");
				continue;
			}
			if (
				rule.directory !== undefined &&
				relativeInside(resolve(expandHome(rule.directory, this.homeDir)), this.cwd) === null
			)
				continue;
			const examples = (["match", "notMatch"] as const).flatMap((expect) =>
				(rule.examples?.[expect] ?? []).map(
					(text, position): RuleExample => ({
						expect,
						text,
						origin: locationOf([...at, "rules", index, "examples", expect, position]),
					}),
				),
			);
			try {
				target.push(compileRule(rule, origin, this.ruleCount++, this.homeDir, examples, agent));
			} catch (error) {
				const problem = `pattern cannot be compiled: ${errorMessage(error)}`;
				return configFileError(file.file, file.scope, [
					{ jsonPath: formatJsonPath([...at, "rules", index, "pattern"]), line: origin.line, problem },
				]);
			}
		}
		return null;
	}

	/** Both files' sections of one name are one section: the union of their rules, tiers and command tiers. */
	private agentSection(name: string): MutableAgentSection {
		const existing = this.agents.get(name);
		if (existing) return existing;
		const created: MutableAgentSection = { name, rules: [], tiers: [], commandTiers: [] };
		this.agents.set(name, created);
		return created;
	}

	private warn(origin: ConfigLocation, message: string): void {
		this.warnings.push({ file: origin.file, jsonPath: origin.jsonPath, line: origin.line, message });
	}
}

/** On by default (adr/0017): what runs without a human runs in the sandbox of its tier. */
const DEFAULT_SANDBOX: SandboxSettings = {
	enabled: true,
	required: false,
	human: false,
	networkAllow: [],
	exclude: [],
};

/**
 * The user file may turn the sandbox off and exempt commands from it; a project file only adds to it (stricter
 * wins): it turns it on, requires it or extends it to a human's approvals, and a host must be in every list that
 * names hosts.
 */
function mergeSandbox(
	current: SandboxSettings,
	config: NonNullable<UserConfig["sandbox"]>,
	scope: ConfigScope,
): SandboxSettings {
	const required = current.required || config.required === true;
	const turnedOn = scope === "user" ? config.enabled !== false : current.enabled || config.enabled === true;
	return {
		enabled: turnedOn || required,
		required,
		human: current.human || config.human === true,
		networkAllow: config.network ? [...current.networkAllow, config.network.allow] : current.networkAllow,
		exclude: scope === "user" ? (config.exclude ?? []).map(compileWildcard) : current.exclude,
	};
}

function stricterUnanswered(a: UnansweredPolicy | null, b: UnansweredPolicy): UnansweredPolicy {
	if (a === null) return b;
	return UNANSWERED_POLICIES.indexOf(a) >= UNANSWERED_POLICIES.indexOf(b) ? a : b;
}

/** The managed layer's value holds when it is the stricter one: it can keep subagents from asking locally. */
function stricterForwardWithUI(user: ForwardWithUI, managed: ForwardWithUI | null): ForwardWithUI {
	if (managed === null) return user;
	return FORWARD_WITH_UI.indexOf(managed) < FORWARD_WITH_UI.indexOf(user) ? managed : user;
}

function smaller(a: number | null, b: number | undefined): number | null {
	if (b === undefined) return a;
	return a === null ? b : Math.min(a, b);
}

const ABOVE_WRITE_SAMPLES: readonly (readonly [command: string, tier: Tier])[] = [
	["rm -rf build", "destructive"],
	["sudo true", "privileged"],
	["curl https://example.com", "network-egress"],
	["wget https://example.com", "network-egress"],
	["ssh host", "network-egress"],
	["scp file host:file", "network-egress"],
	["git push", "network-egress"],
	["git push --force origin main", "destructive"],
	["dd if=/dev/zero of=disk.img", "destructive"],
	["mkfs /dev/sdb1", "destructive"],
	["kubectl delete pod web", "destructive"],
	["terraform apply", "destructive"],
	["npm publish", "network-egress"],
	["docker run image", "privileged"],
];

/** `bash` runs whatever it is given, up to the highest tier. */
const BASH_TOOL = "bash";

/**
 * Load-time warnings for `allow` rules that look broader than they act: an allow can auto-approve only actions
 * within the grant ceiling, so a rule that matches well-known higher-tier commands will still ask for those.
 * The samples are typical tiers, not the classifier's verdict; they exist to explain, not to decide.
 */
function allowAboveCeilingWarnings(rules: readonly PolicyRule[], ceiling: Tier): PolicyWarning[] {
	const warnings: PolicyWarning[] = [];
	for (const rule of rules) {
		if (rule.ref.action !== "allow" || rule.kind !== "wildcard") continue;
		const example =
			rule.surface === "command"
				? ABOVE_WRITE_SAMPLES.find(
						([command, tier]) => !withinCeiling(tier, ceiling) && rule.matcher.test(command),
					)?.[0]
				: !withinCeiling("privileged", ceiling) && rule.matcher.test(BASH_TOOL)
					? `the ${BASH_TOOL} tool`
					: undefined;
		if (example === undefined) continue;
		const { origin } = rule.ref;
		warnings.push({
			file: origin.file,
			jsonPath: origin.jsonPath,
			line: origin.line,
			message: `allow ${rule.surface} "${rule.ref.pattern}" can match actions above the grant ceiling (${ceiling}), e.g. ${example}; those will ask instead of running`,
		});
	}
	return warnings;
}
