/** Seeded generators of config objects, actions and decision contexts for the property tests. */
import type { ActionPart, ClassifiedAction, PathTouch } from "../../src/classify/action.ts";
import type { Origin } from "../../src/origin/origin.ts";
import { RULE_ACTIONS, RULE_SURFACES, UNANSWERED_POLICIES } from "../../src/policy/config-schema.ts";
import type { DecideContext } from "../../src/policy/decide.ts";
import type { SessionGrant } from "../../src/policy/grant-coverage.ts";
import { DECISION_MODES, TIERS, type Tier } from "../../src/vocabulary/tier.ts";
import { action, CWD, commandPart, HOME, type prng, touch } from "./fixtures.ts";

type Rng = ReturnType<typeof prng>;

const COMMANDS = [
	"git status",
	"git push origin main",
	"git push",
	"rm -rf build",
	"ls -la",
	"curl https://example.com",
	"npm install lodash",
	"npm test",
	"make deploy prod",
	"sudo reboot",
	"cat .env",
	"/bin/rm x",
];
const COMMAND_PATTERNS = [
	"git *",
	"git push *",
	"git status",
	"rm *",
	"rm -rf build",
	"*",
	"ls *",
	"curl *",
	"npm *",
	"npm test",
	"make deploy *",
	"sudo *",
	"* .env",
	"cat *",
];
const TOOLS = ["bash", "read", "write", "edit", "mcp_fetch", "notes"];
const TOOL_PATTERNS = ["bash", "read", "write", "edit", "mcp_*", "notes", "*"];
const PATHS = [
	`${CWD}/src/a.ts`,
	`${CWD}/.env`,
	`${CWD}/docs/readme.md`,
	`${CWD}/deep/x/.env`,
	"/etc/passwd",
	`${HOME}/.ssh/id_rsa`,
	`${HOME}/.bashrc`,
	"/srv/app/.env",
];
const PATH_PATTERNS = [
	"src/**",
	"**/.env",
	".env",
	"/etc/**",
	"~/.ssh/**",
	"**",
	"/**",
	"docs/*",
	"~/.bashrc",
	"/srv/**",
	"**/*.ts",
];
const AGENT_NAMES = ["planner", "worker", "scraper"];
/** Who a parked request came from: the root's own run, a subagent, a grandchild. */
const ASKER_PATHS: readonly (readonly string[])[] = [
	["root"],
	["root", "planner"],
	["root", "worker", "scraper"],
];
const TIGHTENING_MODES = ["ask", "deny"] as const;

function some<T>(rng: Rng, max: number, make: () => T): T[] {
	return Array.from({ length: rng.int(max + 1) }, make);
}

function chance(rng: Rng, p: number): boolean {
	return rng.next() < p;
}

function randomRule(rng: Rng): Record<string, unknown> {
	const surface = rng.pick(RULE_SURFACES);
	const pattern =
		surface === "tool"
			? rng.pick(TOOL_PATTERNS)
			: surface === "command"
				? rng.pick(COMMAND_PATTERNS)
				: rng.pick(PATH_PATTERNS);
	const rule: Record<string, unknown> = { surface, pattern, action: rng.pick(RULE_ACTIONS) };
	if (chance(rng, 0.3)) rule.reason = "because";
	return rule;
}

function randomMatcher(rng: Rng): Record<string, unknown> {
	const kind = rng.pick(["human", "headless", "subagent", "ci"] as const);
	if ((kind === "subagent" || kind === "ci") && chance(rng, 0.5)) {
		return { kind, name: kind === "subagent" ? rng.pick(AGENT_NAMES) : "github-actions" };
	}
	return { kind };
}

/** A random valid config; `scope: "project"` leaves out the user-only keys. */
export function randomConfig(rng: Rng, scope: "user" | "project"): Record<string, unknown> {
	const config: Record<string, unknown> = {};
	if (chance(rng, 0.9)) config.rules = some(rng, 8, () => randomRule(rng));
	if (chance(rng, 0.4)) {
		config.tiers = Object.fromEntries(some(rng, 3, () => [rng.pick(TIERS), rng.pick(DECISION_MODES)]));
	}
	if (chance(rng, 0.3)) {
		config.commandTiers = some(rng, 2, () => ({
			pattern: rng.pick(COMMAND_PATTERNS),
			tier: rng.pick(TIERS),
		}));
	}
	if (chance(rng, 0.3))
		config.toolTiers = Object.fromEntries(some(rng, 2, () => [rng.pick(TOOLS), rng.pick(TIERS)]));
	if (chance(rng, 0.4)) {
		config.agentRules = {
			allow: some(rng, 2, () => randomMatcher(rng)),
			deny: some(rng, 1, () => randomMatcher(rng)),
		};
	}
	if (chance(rng, 0.3)) config.unanswered = rng.pick(UNANSWERED_POLICIES);
	if (chance(rng, 0.3)) config.dialogTimeoutSeconds = 1 + rng.int(600);
	if (scope === "user" && chance(rng, 0.3))
		config.grantCeiling = { tier: rng.pick(TIERS), reason: "testing" };
	if (scope === "user" && chance(rng, 0.2)) config.authorizerChain = ["a", "b"];
	return config;
}

/**
 * A random `agents` section list keyed by AGENT_NAMES: deny and ask rules, tier settings and command tiers. Its
 * tier settings may be looser than the top level they meet; such a policy fails closed (a config error).
 */
export function randomAgents(rng: Rng): Record<string, unknown> {
	return Object.fromEntries(
		some(rng, 3, () => {
			const section: Record<string, unknown> = {};
			if (chance(rng, 0.8)) {
				section.rules = some(rng, 4, () => ({ ...randomRule(rng), action: rng.pick(TIGHTENING_MODES) }));
			}
			if (chance(rng, 0.6)) {
				section.tiers = Object.fromEntries(some(rng, 2, () => [rng.pick(TIERS), rng.pick(TIGHTENING_MODES)]));
			}
			if (chance(rng, 0.4)) {
				section.commandTiers = some(rng, 2, () => ({
					pattern: rng.pick(COMMAND_PATTERNS),
					tier: rng.pick(TIERS),
				}));
			}
			return [rng.pick(AGENT_NAMES), section];
		}),
	);
}

/** Any origin, including subagents at depth 2 whose parent is another named agent. */
export function randomAgentContext(rng: Rng): DecideContext {
	const base = randomContext(rng);
	if (!chance(rng, 0.4)) return base;
	const parent = rng.pick(AGENT_NAMES);
	const name = rng.pick(AGENT_NAMES);
	return { ...base, origin: { kind: "subagent", name, depth: 2, path: ["root", parent, name] } };
}

function randomTouch(rng: Rng): PathTouch {
	const absolute = rng.pick(PATHS);
	const resolved = chance(rng, 0.2) ? rng.pick(PATHS) : absolute;
	return touch(rng.pick(["read", "write"] as const), absolute, resolved);
}

function randomPart(rng: Rng, tool: string): ActionPart {
	const tier: Tier = rng.pick(TIERS);
	if (tool === "bash" || chance(rng, 0.1)) {
		return commandPart(rng.pick(COMMANDS), tier, {
			paths: some(rng, 1, () => randomTouch(rng)),
			via: chance(rng, 0.15) ? ["sudo"] : [],
		});
	}
	return { tier, tierReason: "random", paths: some(rng, 2, () => randomTouch(rng)) };
}

export function randomAction(rng: Rng): ClassifiedAction {
	const tool = rng.pick(TOOLS);
	return action(
		tool,
		Array.from({ length: 1 + rng.int(3) }, () => randomPart(rng, tool)),
	);
}

function randomOrigin(rng: Rng): Origin {
	switch (rng.int(4)) {
		case 0:
			return { kind: "human" };
		case 1:
			return { kind: "headless" };
		case 2:
			return { kind: "ci", provider: chance(rng, 0.5) ? "github-actions" : null };
		default: {
			const name = rng.pick(AGENT_NAMES);
			return { kind: "subagent", name, depth: 1, path: ["root", name] };
		}
	}
}

function randomGrant(rng: Rng, n: number): SessionGrant {
	const surface = rng.pick(["tool", "command", "read", "write", "path"] as const);
	const pattern =
		surface === "tool"
			? rng.pick(TOOL_PATTERNS)
			: surface === "command"
				? rng.pick(COMMAND_PATTERNS)
				: rng.pick(PATH_PATTERNS);
	return {
		id: `g${n}`,
		surface,
		pattern,
		scope: "session",
		limit: { tier: "privileged", outsideCwd: true },
		grantedAt: "2025-01-01T00:00:00.000Z",
	};
}

export function randomContext(rng: Rng): DecideContext {
	return {
		origin: randomOrigin(rng),
		grants: some(rng, 2, () => randomGrant(rng, rng.int(1000))),
		parkedApproval: chance(rng, 0.15)
			? {
					requestId: "01ARZ3NDEKTSV4RRFFQ69G5FAV",
					approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" } as const,
					askerPath: rng.pick(ASKER_PATHS),
				}
			: null,
	};
}
