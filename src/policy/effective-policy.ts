/** The policy in force for a session: defaults, user file and trusted project file merged and compiled. */

import type { OriginKind } from "../origin/origin.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import type { DecisionMode, Tier } from "../vocabulary/tier.ts";
import type { WildcardMatcher } from "../vocabulary/wildcard-pattern.ts";
import type { ConfigFileError } from "./config-error.ts";
import type {
	ConfigScope,
	ForwardedDialogKeys,
	ForwardWithUI,
	NotifyStyle,
	UnansweredPolicy,
} from "./config-schema.ts";
import type { ActionRuleIndex, ConfigLocation, PolicyRule, RuleIndex, TierRef } from "./policy-rule.ts";

export const DEFAULT_DIALOG_TIMEOUT_SECONDS = 300;
export const DEFAULT_DEFER_EXPIRY_HOURS = 24;
/** The bell: one byte every terminal and multiplexer understands, carrying nothing of the ask (adr/0020). */
export const DEFAULT_NOTIFY: NotifyStyle = "bell";
export const DEFAULT_FORWARDED_DIALOG_KEYS: ForwardedDialogKeys = "pause";
/** A subagent's own UI is asked when its parent cannot be: a human there answers, nothing else can (adr/0027). */
export const DEFAULT_FORWARD_WITH_UI: ForwardWithUI = "parent-then-local";

/** What relative path patterns are relative to, and what `~` means. */
export interface PatternContext {
	readonly cwd: string;
	readonly homeDir: string;
}

export interface TierSetting {
	readonly mode: DecisionMode;
	readonly ref: TierRef;
}

export interface AgentMatcher {
	readonly kind: OriginKind;
	/** Exact subagent name or CI provider; null matches every origin of the kind. */
	readonly name: string | null;
	readonly action: "allow" | "deny";
	readonly origin: ConfigLocation;
}

export interface CommandTierRule {
	readonly matcher: WildcardMatcher;
	readonly tier: Tier;
	readonly origin: ConfigLocation;
}

/** A `tiers` entry of an `agents` section: never `auto`, and never looser than the top-level mode (adr/0022). */
export interface AgentTierSetting {
	readonly tier: Tier;
	readonly mode: Exclude<DecisionMode, "auto">;
	readonly origin: ConfigLocation;
}

/**
 * One `agents.<name>` section, from either file (both files' sections of one name are merged into one). It
 * applies to an ask whose origin path holds the name, and can only tighten: its rules are deny and ask rules.
 */
export interface AgentSection {
	readonly name: string;
	readonly rules: readonly PolicyRule[];
	readonly tiers: readonly AgentTierSetting[];
	readonly commandTiers: readonly CommandTierRule[];
}

/** What the `agents` sections on an origin's path add that the top-level fields cannot say (adr/0022). */
export interface AgentLimits {
	/** The names of the sections in force, in path order. */
	readonly names: readonly string[];
	/** Their ask rules: each asks a human alone, before any grant, allow rule or link is consulted. */
	readonly ask: ActionRuleIndex;
}

export interface TierAssignment {
	readonly tier: Tier;
	readonly origin: ConfigLocation;
}

export interface GrantCeiling {
	readonly tier: Tier;
	/** The operator's written reason; null for the built-in ceiling. */
	readonly reason: string | null;
	readonly origin: ConfigLocation;
}

/** Something in a valid config that does not do what it seems to; returned as data for the status and CLI. */
export interface PolicyWarning {
	readonly file: string;
	readonly jsonPath: string;
	readonly line: number;
	readonly message: string;
}

export type PolicySourceState = "loaded" | "missing" | "invalid" | "not-trusted";

export interface PolicySource {
	readonly scope: ConfigScope;
	readonly file: string;
	readonly state: PolicySourceState;
}

export interface EffectivePolicy {
	readonly context: PatternContext;
	readonly sources: readonly PolicySource[];
	/** Non-empty means fail closed: every tier is `deny` and decisions name the first error. */
	readonly configErrors: readonly ConfigFileError[];
	readonly warnings: readonly PolicyWarning[];
	/** Every rule in force, user file first, each with its origin. */
	readonly rules: readonly PolicyRule[];
	readonly index: RuleIndex;
	readonly tiers: Readonly<Record<Tier, TierSetting>>;
	/** Raise-only command classifications from both files. */
	readonly commandTiers: readonly CommandTierRule[];
	/** Tiers the user file assigns to tools that are not built in. */
	readonly toolTiers: ReadonlyMap<string, TierAssignment>;
	/** Raise-only tool tiers from the project file. */
	readonly toolTierFloors: ReadonlyMap<string, TierAssignment>;
	readonly agentRules: { readonly allow: readonly AgentMatcher[]; readonly deny: readonly AgentMatcher[] };
	/**
	 * The `agents` sections by name. The decision applies those on the asking origin's path (`policyForOrigin`);
	 * `rules`, `index`, `tiers` and `commandTiers` above are the top level, for everyone.
	 */
	readonly agents: ReadonlyMap<string, AgentSection>;
	/** Set only on a policy limited for an origin (`policyForOrigin`): the sections that limit it. */
	readonly limits: AgentLimits | null;
	readonly authorizerChain: readonly string[];
	/** The user file's `defaultMode`, or null (adr/0023). */
	readonly defaultMode: PermissionMode | null;
	/** The modes the managed layer allows, or null for every mode (adr/0024). */
	readonly allowedModes: readonly PermissionMode[] | null;
	/** False when the managed layer forbids saved rules: none is offered, none applies (adr/0024). */
	readonly allowSavedRules: boolean;
	/** Null when no file sets it: the caller picks (wait with a UI, defer without). */
	readonly unanswered: UnansweredPolicy | null;
	readonly dialogTimeoutSeconds: number;
	readonly deferExpiryHours: number;
	readonly grantCeiling: GrantCeiling;
	/** How a forwarded dialog in the TUI guards its keys (user file only). */
	readonly forwardedDialogKeys: ForwardedDialogKeys;
	/** Whether a subagent with a UI of its own asks there when its parent cannot be asked (adr/0027). */
	readonly forwardWithUI: ForwardWithUI;
	/** How bash commands run in the sandbox of their tier (adr/0017). */
	readonly sandbox: SandboxSettings;
	/** How the terminal UI announces a dialog (user file only). */
	readonly notify: NotifyStyle;
}

/** The sandbox settings of both files, merged stricter-wins (adr/0017). */
export interface SandboxSettings {
	/** Bash commands allowed without a human run in the sandbox of their tier (on unless the user file says no). */
	readonly enabled: boolean;
	/** When no sandbox can run, a call that would run unsandboxed without a human asks one instead. */
	readonly required: boolean;
	/** A human's approval runs in the sandbox of its tier too. */
	readonly human: boolean;
	/**
	 * `sandbox.network.allow` of each file that sets it: the `network` profile reaches only hosts every list
	 * allows, through a proxy. Empty: any host.
	 */
	readonly networkAllow: readonly (readonly string[])[];
	/** `sandbox.exclude` (user file only): commands that run unsandboxed when every command in a call matches. */
	readonly exclude: readonly WildcardMatcher[];
}
