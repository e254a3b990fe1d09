/**
 * The config file format, as zod schemas. The same schemas validate files at load time and generate the
 * published JSON Schema, so editor hints and the loader can never disagree. Objects are strict: a misspelt key
 * is an error, not a silently ignored setting.
 */
import { isIP } from "node:net";
import { NAMED_ORIGIN_KINDS } from "../origin/origin.ts";
import { sanitizeLabel } from "../origin/sanitize-label.ts";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import { PERMISSION_MODES } from "../vocabulary/permission-mode.ts";
import { DECISION_MODES, TIERS } from "../vocabulary/tier.ts";
import * as z from "../vocabulary/zod.ts";

export const RULE_SURFACES = ["tool", "command", "read", "write", "path", "outside-cwd"] as const;
export type RuleSurface = (typeof RULE_SURFACES)[number];

export const RULE_ACTIONS = ["allow", "ask", "deny"] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** Ordered from most to least patient; the merge keeps the strictest. */
export const UNANSWERED_POLICIES = ["wait", "defer", "deny"] as const;
export type UnansweredPolicy = (typeof UNANSWERED_POLICIES)[number];

/** How the terminal UI tells a human that a dialog waits for them (adr/0020). */
export const NOTIFY_STYLES = ["bell", "osc9", "osc777", "off"] as const;
export type NotifyStyle = (typeof NOTIFY_STYLES)[number];
/**
 * How a dialog forwarded from a subagent guards against keys meant for something else (it opens whenever the
 * child asks, often while the human is typing): `pause` ignores keys for its first moment, `twice` takes an
 * answer only when its key is pressed twice in a row.
 */
export const FORWARDED_DIALOG_KEYS = ["pause", "twice"] as const;
export type ForwardedDialogKeys = (typeof FORWARDED_DIALOG_KEYS)[number];
/**
 * Whom a subagent with a UI of its own asks when its parent cannot take the ask (adr/0027). Ordered from
 * strictest to loosest; where two files set it, the stricter wins.
 */
export const FORWARD_WITH_UI = ["parent-only", "parent-then-local"] as const;
export type ForwardWithUI = (typeof FORWARD_WITH_UI)[number];

const MAX_PATTERN_LENGTH = 1000;
const MAX_REASON_LENGTH = 500;
const MAX_NAME_LENGTH = 200;
const MAX_DIRECTORY_LENGTH = 4096;
/** Each example is classified at every load: enough to pin a rule down, few enough to stay cheap. */
const MAX_RULE_EXAMPLES = 20;

/**
 * One entry of `sandbox.network.allow`: a host name (`*.` for its subdomains only), an IPv4 address or a bracketed
 * IPv6 address, optionally with `:port`. Matched against the name a command asks the proxy for, never resolved.
 */
export const NETWORK_ALLOW_ENTRY =
	/^(?:(?:\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::[1-9][0-9]{0,4})?$/i;

/** What the pattern cannot say: a port is at most 65535, and what is in brackets is an IPv6 address. */
function networkAllowEntryInRange(entry: string): boolean {
	const bracketed = /^\[([^\]]*)\]/.exec(entry);
	if (bracketed && isIP(bracketed[1] ?? "") !== 6) return false;
	const port = /:([0-9]+)$/.exec(bracketed ? entry.slice(bracketed[0].length) : entry)?.[1];
	return port === undefined || Number(port) <= 65535;
}

const tierSchema = lazySchema(() =>
	z
		.enum(TIERS)
		.check(
			z.describe(
				"Risk tier, lowest to highest: read, write, network-egress, spend, destructive, privileged.",
			),
		),
);

const patternSchema = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(MAX_PATTERN_LENGTH)));

const ruleSchema = lazySchema(() =>
	ruleSchemaWith(
		z
			.enum(RULE_ACTIONS)
			.check(
				z.describe(
					"`allow` runs without asking (read and write tiers only, unless the grant ceiling is raised), `ask` asks a human, `deny` refuses.",
				),
			),
	),
);

/**
 * A rule of an `agents` section: the same shape, but the name it is keyed by is claimed by whoever starts the
 * subagent, so the section may only restrict (adr/0022).
 */
const agentRuleSchema = lazySchema(() =>
	ruleSchemaWith(
		z.enum(RULE_ACTIONS).check(
			z.refine((action) => action !== "allow", {
				message:
					'an agents section may only tighten: "allow" is not allowed here (the agent name is claimed by whoever starts the subagent); use "ask" or "deny", or an allow rule at the top level',
			}),
			z.describe("`ask` asks a human (no grant, allow rule or authorizer link answers it), `deny` refuses."),
		),
	),
);

function ruleSchemaWith(action: z.ZodMiniType<RuleAction>) {
	return z
		.strictObject({
			surface: z
				.enum(RULE_SURFACES)
				.check(
					z.describe(
						"What the pattern is matched against: `tool` the tool name; `command` each simple command of a bash program; " +
							"`read` / `write` paths read / written; `path` any path touched; `outside-cwd` paths outside the session's working directory.",
					),
				),
			pattern: patternSchema().check(
				z.describe(
					"For `tool` and `command`: `*` matches any run of characters, everything else is literal, the whole name or " +
						"command must match, and a trailing ` *` is optional (`git push *` matches `git push`). For path surfaces: a glob " +
						"(`**`, `*`, `{a,b}`), dotfiles included; `~/` is the home directory; relative globs are taken from the working directory.",
				),
			),
			action,
			reason: z
				.optional(z.string().check(z.maxLength(MAX_REASON_LENGTH)))
				.check(
					z.describe(
						"Why the rule exists. Shown to the model when the rule denies a call, and in audit records.",
					),
				),
			directory: z
				.optional(
					z.string().check(
						z.minLength(1),
						z.maxLength(MAX_DIRECTORY_LENGTH),
						z.refine((path) => path.startsWith("/") || path === "~" || path.startsWith("~/"), {
							message: "must be an absolute path (or start with ~/)",
						}),
					),
				)
				.check(
					z.describe(
						"Only for sessions working in this directory or below it (an absolute path, or `~/…`). Rules saved from a dialog get the project's directory.",
					),
				),
			maxTier: z
				.optional(tierSchema())
				.check(
					z.describe(
						"For an `allow` rule: it covers a part only at this tier or below, so a pattern approved for a `write` never covers a `destructive` spelling of the same command.",
					),
				),
			insideCwd: z
				.optional(z.boolean())
				.check(
					z.describe(
						"For an `allow` rule: `true` makes it cover only parts that stay inside the session's working directory.",
					),
				),
			saved: z
				.optional(z.string().check(z.maxLength(64)))
				.check(
					z.describe(
						'When a human saved this rule from a dialog ("Always allow" / "Always deny"); `pi-permission-hub rules` lists and removes these.',
					),
				),
			examples: z
				.optional(
					z.strictObject({
						match: z
							.optional(z.array(patternSchema()).check(z.maxLength(MAX_RULE_EXAMPLES)))
							.check(z.describe("Calls the rule must match (a deny or ask rule) or cover (an allow rule).")),
						notMatch: z
							.optional(z.array(patternSchema()).check(z.maxLength(MAX_RULE_EXAMPLES)))
							.check(
								z.describe(
									"Calls the rule must not match (a deny or ask rule) or not cover (an allow rule).",
								),
							),
					}),
				)
				.check(
					z.describe(
						"Calls the rule is tested against each time the file is loaded, classified as the gate classifies them: a bash " +
							"command for `command`, a tool name for `tool`, a path for the path surfaces. A failing example is a config error.",
					),
				),
		})
		.check(
			z.refine(
				(rule) => rule.action === "allow" || (rule.maxTier === undefined && rule.insideCwd === undefined),
				{
					message:
						"`maxTier` and `insideCwd` limit what an `allow` rule covers; on a deny or ask rule they would only narrow it",
				},
			),
			z.describe("One policy rule: a surface and a pattern decide an action."),
		);
}

const tierModesSchema = lazySchema(() =>
	z
		.strictObject(
			Object.fromEntries(
				TIERS.map((tier) => [
					tier,
					z
						.optional(z.enum(DECISION_MODES))
						.check(
							z.describe(
								`Mode for the ${tier} tier and every tier above it. Can only tighten: a value looser than the built-in default is ignored with a warning.`,
							),
						),
				]),
			),
		)
		.check(
			z.describe(
				"Per-tier mode: `auto` runs, `ask` asks, `deny` refuses. Defaults: read → auto, every other tier → ask. A setting applies to its tier and all higher tiers.",
			),
		),
);

const commandTierSchema = lazySchema(() =>
	z
		.strictObject({
			pattern: patternSchema().check(z.describe("A `command` pattern (same syntax as a `command` rule).")),
			tier: tierSchema().check(
				z.describe("Minimum tier for matching commands. Can only raise a command's tier, never lower it."),
			),
		})
		.check(z.describe("Classify matching commands at this tier or higher.")),
);

const nameSchema = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH)));

const agentTierModesSchema = lazySchema(() =>
	z
		.strictObject(
			Object.fromEntries(
				TIERS.map((tier) => [
					tier,
					z
						.optional(
							// The refinement gives "auto" its own message; the pipe narrows the parsed type.
							z.pipe(
								z.enum(DECISION_MODES).check(
									z.refine((mode) => mode !== "auto", {
										message:
											'an agents section may only tighten: "auto" is not allowed here; use "ask" or "deny"',
									}),
								),
								z.enum(["ask", "deny"]),
							),
						)
						.check(
							z.describe(
								`Mode for this agent at the ${tier} tier and every tier above it: \`ask\` asks a human even where a grant, an allow rule or an authorizer link would approve, \`deny\` refuses. May not be looser than the top-level mode of the tier.`,
							),
						),
				]),
			),
		)
		.check(z.describe("Per-tier mode for this agent; it can only tighten the top-level tiers.")),
);

/**
 * One `agents.<name>` section: applied to every ask whose origin path (root ← … ← asker) holds that name. The
 * name is caller-claimed, so the section can only tighten: no allow rules, no `auto` tiers.
 */
const agentSectionSchema = lazySchema(() =>
	z
		.strictObject({
			rules: z
				.optional(z.array(agentRuleSchema()))
				.check(z.describe("Deny and ask rules for this agent and every subagent it starts.")),
			tiers: z.optional(agentTierModesSchema()),
			commandTiers: z
				.optional(z.array(commandTierSchema()))
				.check(z.describe("Command classifications for this agent's asks. They only raise tiers.")),
		})
		.check(
			z.describe(
				"Limits for the subagent of this name and its descendants. Only tightens: deny and ask rules, stricter tiers, raised command tiers.",
			),
		),
);

/** An `agents` key: a label as the gate sanitizes it, so the section can match some origin at all. */
const agentNameSchema = lazySchema(() =>
	nameSchema().check(
		z.refine((name) => sanitizeLabel(name) === name, {
			message: "an agent name without leading or trailing blanks, control or invisible characters",
		}),
	),
);

const noName = lazySchema(() =>
	z
		.optional(
			z.never({
				error: 'a name is only allowed for kind "subagent" (the agent name) or "ci" (the provider)',
			}),
		)
		.check(z.describe("Not allowed: this kind of origin carries no name.")),
);

function agentMatcherSchema() {
	return z
		.discriminatedUnion("kind", [
			z.strictObject({
				kind: z.literal("human").check(z.describe("An interactive session with a human.")),
				name: noName(),
			}),
			z.strictObject({
				kind: z.literal("headless").check(z.describe("A print or JSON mode run with no UI.")),
				name: noName(),
			}),
			z.strictObject({
				kind: z.literal("subagent").check(z.describe("A child session started by a subagent extension.")),
				name: z.optional(nameSchema()).check(z.describe("Exact agent name; omit to match every subagent.")),
			}),
			z.strictObject({
				kind: z.literal("ci").check(z.describe("A run inside continuous integration.")),
				name: z
					.optional(nameSchema())
					.check(z.describe("Exact CI provider (e.g. `github-actions`); omit to match every provider.")),
			}),
		])
		.check(
			z.describe(
				`Matches an origin by kind, and by exact name for the kinds that have one (${NAMED_ORIGIN_KINDS.join(", ")}).`,
			),
		);
}

const agentRulesSchema = lazySchema(() =>
	z
		.strictObject({
			allow: z
				.optional(z.array(agentMatcherSchema()))
				.check(
					z.describe(
						"Origins the operator expects. Reported with each decision; never a bypass of other rules.",
					),
				),
			deny: z
				.optional(z.array(agentMatcherSchema()))
				.check(z.describe("Origins whose every tool call is refused.")),
		})
		.check(
			z.describe(
				"Policy keyed by who is asking (caller-claimed labels, an operator signal, not proof of identity).",
			),
		),
);

const grantCeilingSchema = lazySchema(() =>
	z
		.strictObject({
			tier: tierSchema().check(z.describe("Highest tier an `allow` rule may approve without asking.")),
			reason: z
				.string()
				.check(
					z.regex(/\S/, "must say why the ceiling is raised"),
					z.maxLength(MAX_REASON_LENGTH),
					z.describe("Why the ceiling is raised; shown in the status line and recorded in the audit log."),
				),
		})
		.check(
			z.describe(
				"Raise (or lower) the standing-grant ceiling. By default `allow` rules approve read and write actions only; higher tiers still ask.",
			),
		),
);

/** The keys every file shares, each built when a file first uses it (`parseConfigValue`). */
function sharedShape() {
	return {
		$schema: () => z.optional(z.string()).check(z.describe("Path or URL of this JSON Schema, for editors.")),
		rules: () =>
			z
				.optional(z.array(ruleSchema()))
				.check(z.describe("Policy rules. Any matching deny wins, then ask, then allow.")),
		tiers: () => z.optional(tierModesSchema()),
		commandTiers: () =>
			z
				.optional(z.array(commandTierSchema()))
				.check(z.describe("Extra command classifications. They only raise tiers.")),
		toolTiers: () =>
			z
				.optional(z.record(nameSchema(), tierSchema()))
				.check(
					z.describe(
						"Tier for tools that are not built in (tool name → tier). Unlisted unknown tools take the highest tier. In a project file these can only raise a tool's tier.",
					),
				),
		agentRules: () => z.optional(agentRulesSchema()),
		agents: () =>
			z
				.optional(z.record(agentNameSchema(), agentSectionSchema()))
				.check(
					z.describe(
						"Limits per subagent name (`agents.reviewer`), applied to the asks of that subagent and of every subagent below it. Names are claimed by whoever starts a subagent, so a section may only tighten (adr/0022).",
					),
				),
		unanswered: () =>
			z
				.optional(z.enum(UNANSWERED_POLICIES))
				.check(
					z.describe(
						"What an ask does when nobody answers: `wait` blocks until answered or timed out, `defer` parks the request for a later approval, `deny` refuses at once. Default: wait when a human is reachable, defer otherwise.",
					),
				),
		dialogTimeoutSeconds: () =>
			z
				.optional(z.int().check(z.positive()))
				.check(z.describe("How long `wait` waits for an answer, in seconds (default 300).")),
		deferExpiryHours: () =>
			z
				.optional(z.number().check(z.positive()))
				.check(z.describe("How long a parked request stays approvable, in hours (default 24).")),
	};
}

/** `sandbox`: a project file may add to it (stricter wins), but only the user may exempt commands from it. */
function sandboxSchema(scope: ConfigScope) {
	return z
		.optional(
			z.strictObject({
				enabled: z
					.optional(z.boolean())
					.check(
						z.describe(
							"Run the bash commands the gate allows without a human inside an OS sandbox that matches their tier: a read reads, a write writes in the project, only network-egress reaches the network (Linux, needs bubblewrap). On by default; the user file can turn it off, a project file only on.",
						),
					),
				required: z
					.optional(z.boolean())
					.check(
						z.describe(
							"When no sandbox can run here (no bubblewrap, no user namespaces), ask a human for every bash call that would otherwise run unsandboxed without one, instead of running it. Turns the sandbox on.",
						),
					),
				human: z
					.optional(z.boolean())
					.check(
						z.describe(
							"Sandbox the bash calls a human approved too (and the commands they type with `!`), in the profile of their tier. By default a human's approval runs the command as approved.",
						),
					),
				network: z
					.optional(
						z.strictObject({
							allow: z
								.array(
									z.string().check(
										z.regex(NETWORK_ALLOW_ENTRY, {
											error:
												'a host name, "*." and a domain, or an IP address, optionally with ":port" (e.g. "registry.npmjs.org", "*.github.com", "127.0.0.1:8080", "[::1]:3000")',
										}),
										z.refine(networkAllowEntryInRange, {
											error: "a port from 1 to 65535, and an IPv6 address in the brackets",
										}),
									),
								)
								.check(
									z.describe(
										"The only hosts a command approved at network-egress (or above) without a human may reach, through a proxy; others are refused. Unset: any host. When both files set a list, a host must be in both.",
									),
								),
						}),
					)
					.check(z.describe("The network the `network` profile gives.")),
				exclude:
					scope === "user"
						? z
								.optional(z.array(patternSchema()))
								.check(
									z.describe(
										"Commands that run unsandboxed even when allowed without a human (a rule, a grant): a bash call is excluded only when every command in it matches one of these `command` patterns. For what the sandbox breaks and you trust, e.g. `git commit *` (the sandbox keeps .git read-only). A command that starts pi (`pi -e …`, `npx pi`) is never excluded: it is a delegation, for a human alone.",
									),
								)
						: userOnly("sandbox.exclude"),
			}),
		)
		.check(z.describe("The OS sandbox for bash commands (adr/0017)."));
}

function forwardWithUISchema() {
	return z
		.optional(z.enum(FORWARD_WITH_UI))
		.check(
			z.describe(
				"Whom a subagent that has a UI of its own (a child pi in another terminal pane) asks: `parent-then-local` forwards to its parent and, when the parent is gone or not serving (or none was found), asks you in the subagent's own UI, with the same dialog timeout; `parent-only` never asks there: the ask is parked or refused, as for a subagent without a UI.",
			),
		);
}

function userOnly(key: string) {
	return z
		.optional(
			z.never({
				error: `only the user-level config (<agent dir>/pi-permission-hub/config.json) may set ${key}`,
			}),
		)
		.check(z.describe(`Not allowed in a project file: only the user-level config may set ${key}.`));
}

/** How long one authorizer link of `authorizerChain` may take before it counts as having decided nothing. */
export const DEFAULT_LINK_TIMEOUT_MS = 5000;

const userShape = memoizedShape({
	...sharedShape(),
	sandbox: () => sandboxSchema("user"),
	authorizerChain: () =>
		z
			.optional(z.array(nameSchema()))
			.check(
				z.describe(
					"Authorizer links (registered by other extensions) that decide an ask, in order, before a human is asked.",
				),
			),
	grantCeiling: () => z.optional(grantCeilingSchema()),
	defaultMode: () =>
		z
			.optional(z.enum(PERMISSION_MODES))
			.check(
				z.describe(
					"The permission mode a session starts in (`--permission-mode` and `/permissions mode` change it): `default`, `plan` (only reads run), `accept-edits` (edits inside the project run unasked: the file tools and commands whose every effect is a file write, never a program), `sandboxed` (as accept-edits, and any command up to destructive runs unasked inside the sandbox, with project writes and no network; with no sandbox running, programs ask), `dont-ask` (every ask is refused), `trusted` (asks up to destructive are allowed, except writes outside the project; a program only inside the sandbox).",
				),
			),
	notify: () =>
		z
			.optional(z.enum(NOTIFY_STYLES))
			.check(
				z.describe(
					"How pi's terminal UI tells you a permission dialog is waiting, when the first of a run of dialogs opens: `bell` the terminal bell (a multiplexer flags the window), `osc9` / `osc777` a desktop notification escape sequence naming the tool and tier, never the command (inside tmux, with `set -g allow-passthrough on`), `off` nothing. Not written in RPC, print or JSON mode.",
				),
			),
	forwardedDialogKeys: () =>
		z
			.optional(z.enum(FORWARDED_DIALOG_KEYS))
			.check(
				z.describe(
					"How pi's terminal dialogs guard against keys meant for the editor (a dialog may open while you type): `pause` (every dialog) takes a key only after a pause in typing (no key in the second before it, none in the half second after it) and once the dialog was on screen for 0.6 s; `twice` also wants each answer's key twice in a row on a dialog forwarded from a subagent.",
				),
			),
	forwardWithUI: () => forwardWithUISchema(),
});

/** `<agent dir>/pi-permission-hub/config.json`. */
export const UserConfigSchema = lazySchema(() =>
	z.strictObject(builtShape(userShape)).check(
		z.meta({
			title: "pi-permission-hub user config",
			description: "User-level permission policy for pi-permission-hub (JSON with comments).",
		}),
	),
);

const projectShape = memoizedShape({
	...sharedShape(),
	sandbox: () => sandboxSchema("project"),
	authorizerChain: () => userOnly("authorizerChain"),
	grantCeiling: () => userOnly("grantCeiling"),
	defaultMode: () => userOnly("defaultMode"),
	notify: () => userOnly("notify"),
	forwardedDialogKeys: () => userOnly("forwardedDialogKeys"),
	forwardWithUI: () => userOnly("forwardWithUI"),
});

/** `<project>/.pi/pi-permission-hub.json`: read only for trusted projects, and it may only tighten. */
export const ProjectConfigSchema = lazySchema(() =>
	z.strictObject(builtShape(projectShape)).check(
		z.meta({
			title: "pi-permission-hub project config",
			description:
				"Project permission policy for pi-permission-hub (JSON with comments). Read only when pi trusts the project; it can only tighten the user-level policy.",
		}),
	),
);

const managedShape = memoizedShape({
	...sharedShape(),
	sandbox: () => sandboxSchema("project"),
	grantCeiling: () =>
		z
			.optional(grantCeilingSchema())
			.check(
				z.describe(
					"The highest tier any `allow` rule may approve: a user file may lower it, never raise it.",
				),
			),
	allowedModes: () =>
		z
			.optional(z.array(z.enum(PERMISSION_MODES)).check(z.minLength(1)))
			.check(
				z.describe(
					"The permission modes a session may be in; any other is refused (the flag, `/permissions mode`, `defaultMode`). Omitted: every mode.",
				),
			),
	allowedLinks: () =>
		z
			.optional(z.array(nameSchema()))
			.check(
				z.describe(
					"The authorizer links the user's `authorizerChain` may name; the others are skipped. Omitted: any link.",
				),
			),
	allowSavedRules: () =>
		z
			.optional(z.boolean())
			.check(
				z.describe(
					"`false`: dialogs offer no Always allow / Always deny, and rules saved earlier (`saved`) do not apply.",
				),
			),
	authorizerChain: () => userOnly("authorizerChain"),
	defaultMode: () => userOnly("defaultMode"),
	notify: () => userOnly("notify"),
	forwardedDialogKeys: () => userOnly("forwardedDialogKeys"),
	forwardWithUI: () =>
		forwardWithUISchema().check(
			z.describe(
				"`parent-only`: no subagent asks in a UI of its own, whatever the user file says (adr/0027). `parent-then-local` leaves the choice to the user file.",
			),
		),
});

/**
 * The managed layer (`/etc/pi-permission-hub/config.json`, or `$PI_PERMISSION_HUB_MANAGED_CONFIG`), written by
 * whoever runs the machine (adr/0024): what it denies, asks and caps no user or project file loosens, and it
 * says which permission modes, links and saved rules the user may have at all.
 */
export const ManagedConfigSchema = lazySchema(() =>
	z.strictObject(builtShape(managedShape)).check(
		z.meta({
			title: "pi-permission-hub managed config",
			description:
				"System-wide permission policy for pi-permission-hub (JSON with comments), read before the user file: no user or project file loosens it.",
		}),
	),
);

export type UserConfig = z.infer<ReturnType<typeof UserConfigSchema>>;
export type ManagedConfig = z.infer<ReturnType<typeof ManagedConfigSchema>>;
/**
 * A loaded file of any scope: the project and managed schemas accept a subset of the user file's keys, plus the
 * managed layer's own.
 */
export type AnyConfig = UserConfig & Pick<ManagedConfig, "allowedModes" | "allowedLinks" | "allowSavedRules">;
export type ConfigRule = NonNullable<UserConfig["rules"]>[number];

export type ConfigScope = "managed" | "user" | "project";

/** One builder per key of a config file. */
type ShapeBuilders = Record<string, () => z.ZodMiniType>;

/** The same builders, each building its schema once (a key's schema serves the whole file's schema too). */
function memoizedShape<Shape extends ShapeBuilders>(builders: Shape): Shape {
	return Object.fromEntries(
		Object.entries(builders).map(([key, build]) => [key, lazySchema(build)]),
	) as Shape;
}

function builtShape<Shape extends ShapeBuilders>(
	shape: Shape,
): { [Key in keyof Shape]: ReturnType<Shape[Key]> } {
	return Object.fromEntries(Object.entries(shape).map(([key, build]) => [key, build()])) as {
		[Key in keyof Shape]: ReturnType<Shape[Key]>;
	};
}

function shapeForScope(scope: ConfigScope): ShapeBuilders {
	if (scope === "managed") return managedShape;
	return scope === "user" ? userShape : projectShape;
}

/**
 * A config file's value parsed with its scope's schema, building only the schemas of the keys the file has
 * (adr/0028): a file that sets `sandbox` alone never builds the rules, agents and tiers schemas, the largest part
 * of a session start's zod work. It is exactly the strict object's parse: every key must be one of the scope's,
 * and each value is parsed by that key's schema. When anything is wrong, the whole schema parses the file again,
 * so the problems reported are the whole schema's.
 */
export function parseConfigValue(
	scope: ConfigScope,
	raw: unknown,
):
	| { readonly success: true; readonly data: AnyConfig }
	| { readonly success: false; readonly error: z.core.$ZodError } {
	if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
		const shape = shapeForScope(scope);
		const data: Record<string, unknown> = {};
		let valid = true;
		const input = raw as Record<string, unknown>;
		// The keys the strict object calls unknown: `for…in`, inherited enumerable keys included, as zod's.
		for (const key in input) {
			const parsed = Object.hasOwn(shape, key) ? shape[key]?.().safeParse(input[key]) : undefined;
			if (parsed?.success !== true) {
				valid = false;
				break;
			}
			data[key] = parsed.data;
		}
		// zod reads a declared key wherever `in` finds it: one the loop did not see (not enumerable) is the
		// whole schema's to judge.
		valid &&= Object.keys(shape).every((key) => Object.hasOwn(data, key) || !(key in input));
		// Each value was parsed by the schema of its key, and no other key is present.
		if (valid) return { success: true, data: data as AnyConfig };
	}
	const parsed = schemaForScope(scope).safeParse(raw);
	return parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error };
}

export function schemaForScope(
	scope: ConfigScope,
):
	| ReturnType<typeof UserConfigSchema>
	| ReturnType<typeof ProjectConfigSchema>
	| ReturnType<typeof ManagedConfigSchema> {
	if (scope === "managed") return ManagedConfigSchema();
	return scope === "user" ? UserConfigSchema() : ProjectConfigSchema();
}
