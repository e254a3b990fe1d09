/**
 * What the configuration reference says that the schema cannot: each key's default and how a project file's
 * value combines with the user file's (or why it may not be set), what each rule surface matches, and the
 * example files. Defaults come from the constants the code applies, not from copies of their values.
 */

import { JSON_SCHEMA_FILES } from "../../src/policy/config-json-schema.ts";
import { type RuleSurface, UNANSWERED_POLICIES, type UserConfig } from "../../src/policy/config-schema.ts";
import {
	DEFAULT_DEFER_EXPIRY_HOURS,
	DEFAULT_DIALOG_TIMEOUT_SECONDS,
	DEFAULT_FORWARD_WITH_UI,
	DEFAULT_FORWARDED_DIALOG_KEYS,
	DEFAULT_NOTIFY,
} from "../../src/policy/effective-policy.ts";
import {
	DEFAULT_GRANT_CEILING,
	defaultModeForTier,
	HIGHEST_TIER,
	TIERS,
	withinCeiling,
} from "../../src/vocabulary/tier.ts";

export type TopLevelKey = keyof UserConfig;

/** How a key of the project file combines with the user file, or why the project file may not set it. */
export type ProjectNote =
	| { readonly kind: "merge"; readonly text: string }
	| { readonly kind: "user-only"; readonly why: string };

export interface KeyNotes {
	readonly default: string;
	readonly project: ProjectNote;
}

export const TIER_DEFAULTS = describeTierDefaults();

/** A `Record` over every key: a key added to the schema does not type-check until it is documented here. */
export const KEY_NOTES: Readonly<Record<TopLevelKey, KeyNotes>> = {
	$schema: {
		default: "none",
		project: { kind: "merge", text: "Allowed. Editors read it; the policy ignores it." },
	},
	rules: {
		default: "none",
		project: {
			kind: "merge",
			text: "Its `deny` and `ask` rules are added to the user file's. Its `allow` rules are dropped, with a warning.",
		},
	},
	tiers: {
		default: TIER_DEFAULTS,
		project: {
			kind: "merge",
			text: "Tightens only, like the user file's: for each tier the strictest setting of both files wins.",
		},
	},
	commandTiers: {
		default: "none (the built-in classification)",
		project: { kind: "merge", text: "Added to the user file's entries; every entry only raises a tier." },
	},
	toolTiers: {
		default: `none: a tool that is not built in takes \`${HIGHEST_TIER}\``,
		project: {
			kind: "merge",
			text: "Only raises: an entry can lift a tool (built-in ones included) above the tier it would have, never lower it.",
		},
	},
	agentRules: {
		default: "none",
		project: { kind: "merge", text: "Added to the user file's matchers." },
	},
	agents: {
		default: "none",
		project: {
			kind: "merge",
			text: "Added to the user file's sections: both files' sections of one name are one section, and each setting is checked against the merged top-level tiers.",
		},
	},
	unanswered: {
		default: "`wait` when a human is reachable (a UI, or a parent session to forward to), `defer` otherwise",
		project: {
			kind: "merge",
			text: `The stricter of the two files wins (${UNANSWERED_POLICIES.map((p) => `\`${p}\``).join(" < ")}).`,
		},
	},
	dialogTimeoutSeconds: {
		default: `\`${DEFAULT_DIALOG_TIMEOUT_SECONDS}\``,
		project: { kind: "merge", text: "The smaller of the two files' values wins." },
	},
	deferExpiryHours: {
		default: `\`${DEFAULT_DEFER_EXPIRY_HOURS}\``,
		project: { kind: "merge", text: "The smaller of the two files' values wins." },
	},
	sandbox: {
		default:
			'`{ "enabled": true, "required": false, "human": false }`, no `network.allow` (any host), no `exclude`',
		project: {
			kind: "merge",
			text: "Stricter wins: a project file turns `enabled`, `required` and `human` on, never off (only the user file can turn the sandbox off); when both set `network.allow`, a host must be in both lists. `exclude` is for the user file only: it exempts commands from the sandbox.",
		},
	},
	authorizerChain: {
		default: "`[]` (no links)",
		project: {
			kind: "user-only",
			why: "A link approves asks by code. A project file arrives with the repository, so it must not choose which code decides for you.",
		},
	},
	grantCeiling: {
		default: `\`${DEFAULT_GRANT_CEILING}\`: \`allow\` rules approve ${TIERS.filter((t) =>
			withinCeiling(t, DEFAULT_GRANT_CEILING),
		)
			.map((t) => `\`${t}\``)
			.join(" and ")} actions only`,
		project: {
			kind: "user-only",
			why: "It widens what `allow` rules approve without asking. Only the user may loosen the policy, and only with a written reason.",
		},
	},
	defaultMode: {
		default: "`default`: the policy decides, and asks go to a human",
		project: {
			kind: "user-only",
			why: "A mode such as `trusted` or `accept-edits` lets calls run without asking. A repository must not choose that for you.",
		},
	},
	notify: {
		default: `\`"${DEFAULT_NOTIFY}"\` (once per run of dialogs, in pi's terminal UI only)`,
		project: {
			kind: "user-only",
			why: "It decides what is written to your terminal, a preference of yours, not of the repository.",
		},
	},
	forwardedDialogKeys: {
		default: `\`${DEFAULT_FORWARDED_DIALOG_KEYS}\`: a dialog takes a key only after a pause in typing`,
		project: {
			kind: "user-only",
			why: "It is how your keyboard meets the dialog, nothing a repository should choose.",
		},
	},
	forwardWithUI: {
		default: `\`${DEFAULT_FORWARD_WITH_UI}\`: a subagent whose parent cannot be asked asks in its own UI, if it has one`,
		project: {
			kind: "user-only",
			why: "It says which of your terminals a subagent's question may appear in, nothing a repository should choose.",
		},
	},
};

export const SURFACE_MATCHES: Readonly<Record<RuleSurface, string>> = {
	tool: "the tool's name (`bash`, `read`, `edit`, a tool another extension registers, …)",
	command:
		"each simple command of a bash program, separately: `npm test && git push` is matched as `npm test` and as `git push`",
	read: "each path the call reads",
	write: "each path the call writes",
	path: "each path the call touches, read or written",
	"outside-cwd": "each path the call touches outside the session's working directory",
};

/**
 * The gate keeps its JSON Schemas next to the user config (`refreshSchemaCopies`): the user file names its copy
 * relatively, a project file (elsewhere on disk) by its absolute path.
 */
const PROJECT_SCHEMA_COPY = `/home/me/.pi/agent/pi-permission-hub/${JSON_SCHEMA_FILES.project}`;

const USER_EXAMPLE = `{
	"$schema": "./${JSON_SCHEMA_FILES.user}",
	"rules": [
		{
			"surface": "command",
			"pattern": "git push --force*",
			"action": "deny",
			"reason": "force-push is reviewed by humans"
		},
		{ "surface": "read", "pattern": "~/.ssh/**", "action": "deny" },
		{ "surface": "command", "pattern": "git push *", "action": "ask" },
		{ "surface": "command", "pattern": "npm test", "action": "allow" },
		{ "surface": "write", "pattern": "src/**", "action": "allow" },
		{ "surface": "outside-cwd", "pattern": "**", "action": "ask" }
	],
	"tiers": { "privileged": "deny" },
	"commandTiers": [{ "pattern": "terraform apply *", "tier": "destructive" }],
	"toolTiers": { "web_fetch": "network-egress" },
	"agentRules": {
		"allow": [{ "kind": "subagent", "name": "worker" }],
		"deny": [{ "kind": "ci" }]
	},
	// A subagent started as "reviewer" (and those it starts) only reads: a section may only tighten.
	"agents": { "reviewer": { "tiers": { "write": "deny" } } },
	"unanswered": "defer",
	"dialogTimeoutSeconds": 120,
	"deferExpiryHours": 8,
	// Commands allowed without you run in an OS sandbox matching their tier (Linux, needs bubblewrap); here the
	// network ones reach only the npm registry. ("exclude": ["git commit *"] would let a rule-allowed commit
	// write .git: only this file may exempt commands.)
	"sandbox": { "network": { "allow": ["registry.npmjs.org"] } },
	// Links are registered by other extensions; a name nobody registered is skipped.
	"authorizerChain": ["git-guard"],
	// Only here, only with a reason: it is shown in the status line and recorded in every audit line.
	"grantCeiling": { "tier": "network-egress", "reason": "the docs fetcher downloads pages all day" },
	// The mode sessions start in: "plan", "accept-edits", "dont-ask" or "trusted" change what asks (Alt+M cycles).
	"defaultMode": "default",
	// A desktop notification instead of the bell when a dialog opens in pi's terminal UI.
	"notify": "osc777",
	"forwardedDialogKeys": "twice",
	// A subagent in its own pane never asks there: with its parent gone, its asks are parked or refused.
	"forwardWithUI": "parent-only"
}`;

const PROJECT_EXAMPLE = `{
	"$schema": "${PROJECT_SCHEMA_COPY}",
	"rules": [
		{ "surface": "write", "pattern": "migrations/**", "action": "ask", "reason": "migrations are reviewed" },
		{ "surface": "command", "pattern": "npm publish *", "action": "deny" }
	],
	"tiers": { "destructive": "deny" },
	"commandTiers": [{ "pattern": "./scripts/deploy.sh *", "tier": "privileged" }],
	"unanswered": "deny"
}`;

/** The example configs on the page, by scope; the reference test loads each with the real loader. */
export const CONFIG_REFERENCE_EXAMPLES = { user: USER_EXAMPLE, project: PROJECT_EXAMPLE } as const;

export function isTopLevelKey(key: string): key is TopLevelKey {
	return Object.hasOwn(KEY_NOTES, key);
}

function describeTierDefaults(): string {
	const [first, ...rest] = TIERS;
	const firstMode = defaultModeForTier(first);
	const restModes = new Set(rest.map(defaultModeForTier));
	const [restMode] = restModes;
	if (restModes.size !== 1 || restMode === undefined) {
		return TIERS.map((tier) => `\`${tier}\` → \`${defaultModeForTier(tier)}\``).join(", ");
	}
	return `\`${first}\` → \`${firstMode}\`, every other tier → \`${restMode}\``;
}
