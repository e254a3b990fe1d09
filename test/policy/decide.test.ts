import { describe, expect, it } from "vitest";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import {
	type Decision,
	decide,
	findCoveringGrant,
	findDeny,
	forwardedAskLimits,
} from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import {
	APPROVED,
	action,
	bash,
	CWD,
	commandPart,
	ctx,
	grant,
	HOME,
	HUMAN,
	pathPart,
	policyFromConfig,
	subagent,
	toolPart,
	touch,
	USER_FILE,
} from "./fixtures.ts";

type Rule = { surface: string; pattern: string; action: string; reason?: string };
const rules = (...list: Rule[]): EffectivePolicy => policyFromConfig({ rules: list });
const deny = (surface: string, pattern: string, reason?: string): Rule => ({
	surface,
	pattern,
	action: "deny",
	reason,
});
const ask = (surface: string, pattern: string): Rule => ({ surface, pattern, action: "ask" });
const allow = (surface: string, pattern: string): Rule => ({ surface, pattern, action: "allow" });

const readFile = (path: string, resolved = path): ClassifiedAction =>
	action("read", [pathPart("read", touch("read", path, resolved))]);
const writeFile = (path: string, resolved = path): ClassifiedAction =>
	action("write", [pathPart("write", touch("write", path, resolved))]);

function basisOf(decision: Decision): string {
	const b = decision.basis;
	switch (b.kind) {
		case "rule":
		case "tier":
			return `${b.kind}:${b.rule.surface}:${b.rule.pattern}:${b.rule.action}`;
		case "session_grant":
			return `grant:${b.grant.id}`;
		case "agent_rule":
			return `agent:${b.matcher.kind}:${b.matcher.name ?? "*"}`;
		case "parked_approval":
			return "parked";
		case "config_error":
			return "config_error";
		case "guard":
			return `guard:${b.guard.kind}`;
	}
}

describe("decide: tier defaults", () => {
	it("read runs, everything else asks (grantable), each naming the tier", () => {
		const policy = policyFromConfig({});
		const read = decide(readFile(`${CWD}/a.ts`), policy, ctx());
		expect(read.mode).toBe("auto");
		expect(basisOf(read)).toBe("tier:tier:read:auto");
		const write = decide(writeFile(`${CWD}/a.ts`), policy, ctx());
		expect(write).toMatchObject({ mode: "ask", grantable: true, notes: [] });
		expect(basisOf(write)).toBe("tier:tier:write:ask");
		if (write.basis.kind !== "tier") throw new Error("expected tier basis");
		expect(write.basis.rule.origin).toEqual({ file: "built-in", jsonPath: "tiers.write", line: 0 });
	});

	it("tier overrides tighten, and a deny tier denies naming the override", () => {
		const policy = policyFromConfig({ tiers: { read: "ask", spend: "deny" } });
		expect(decide(readFile(`${CWD}/a.ts`), policy, ctx()).mode).toBe("ask");
		const spend = decide(bash(["aws ec2 run-instances", "spend"]), policy, ctx());
		expect(spend.mode).toBe("deny");
		if (spend.basis.kind !== "tier") throw new Error("expected tier basis");
		expect(spend.basis.rule.origin).toMatchObject({ file: USER_FILE, jsonPath: "tiers.spend" });
		expect(spend.basis.part.tier).toBe("spend");
		// A tier setting covers the tiers above it.
		expect(decide(bash(["rm -rf /", "destructive"]), policy, ctx()).mode).toBe("deny");
	});
});

describe("decide: deny rules", () => {
	it("a deny rule on any surface of any part denies, naming rule, reason, origin and part", () => {
		const policy = rules(allow("command", "ls *"), deny("command", "curl *", "no network from agents"));
		const decision = decide(
			bash(["ls -la", "read"], ["curl https://x.dev", "network-egress"]),
			policy,
			ctx(),
		);
		expect(decision.mode).toBe("deny");
		if (decision.basis.kind !== "rule") throw new Error("expected rule basis");
		expect(decision.basis.rule).toEqual({
			surface: "command",
			pattern: "curl *",
			action: "deny",
			reason: "no network from agents",
			origin: { file: USER_FILE, jsonPath: "rules[1]", line: 1 },
		});
		expect(decision.basis.part.index).toBe(1);
		expect(decision.basis.part.part.command?.text).toBe("curl https://x.dev");
	});

	it("tool rules match the tool name", () => {
		expect(
			decide(action("mcp_github", [toolPart("network-egress")]), rules(deny("tool", "mcp_*")), ctx()).mode,
		).toBe("deny");
	});

	it("command deny rules also see the basename and the wrappers the command was unwrapped from", () => {
		const policy = rules(deny("command", "rm -rf *"), deny("command", "sudo *"));
		const viaPath = action("bash", [commandPart("/bin/rm -rf build", "destructive")]);
		expect(basisOf(decide(viaPath, policy, ctx()))).toBe("rule:command:rm -rf *:deny");
		const viaSudo = action("bash", [commandPart("apt install x", "privileged", { via: ["sudo"] })]);
		expect(basisOf(decide(viaSudo, policy, ctx()))).toBe("rule:command:sudo *:deny");
		const viaSubstitution = action("bash", [commandPart("ls", "read", { via: ["$(…)"] })]);
		expect(decide(viaSubstitution, rules(deny("command", "$(…) *")), ctx()).mode).toBe("auto");
	});

	it("read / write / path rules apply to the matching access only", () => {
		const policy = rules(deny("write", "src/**"), deny("read", "~/.ssh/**"));
		expect(decide(readFile(`${CWD}/src/a.ts`), policy, ctx()).mode).toBe("auto");
		expect(decide(writeFile(`${CWD}/src/a.ts`), policy, ctx()).mode).toBe("deny");
		expect(decide(readFile(`${HOME}/.ssh/id_rsa`), policy, ctx()).mode).toBe("deny");
		expect(decide(readFile(`${CWD}/x`), rules(deny("path", "x")), ctx()).mode).toBe("deny");
		expect(decide(writeFile(`${CWD}/x`), rules(deny("path", "x")), ctx()).mode).toBe("deny");
	});

	it("matches a path by its symlink-resolved form too", () => {
		const policy = rules(deny("read", "/etc/**"));
		expect(decide(readFile(`${CWD}/innocent`, "/etc/shadow"), policy, ctx()).mode).toBe("deny");
	});

	it("a relative `**` deny reaches outside the cwd; a plain relative one does not", () => {
		expect(decide(readFile("/srv/app/.env"), rules(deny("read", "**/.env")), ctx()).mode).toBe("deny");
		expect(decide(readFile("/srv/app/.env"), rules(deny("read", ".env")), ctx()).mode).toBe("auto");
	});

	it("outside-cwd rules apply to paths outside the cwd only", () => {
		const policy = rules(deny("outside-cwd", "**", "stay in the project"));
		expect(decide(readFile("/etc/hosts"), policy, ctx()).mode).toBe("deny");
		expect(decide(readFile(`${CWD}/a`), policy, ctx()).mode).toBe("auto");
		expect(decide(readFile(`${CWD}/link`, "/etc/hosts"), policy, ctx()).mode).toBe("deny");
	});

	it("a command part's paths are checked too", () => {
		const part = commandPart("cat ~/.ssh/id_rsa", "read", { paths: [touch("read", `${HOME}/.ssh/id_rsa`)] });
		expect(decide(action("bash", [part]), rules(deny("read", "~/.ssh/**")), ctx()).mode).toBe("deny");
	});
});

describe("decide: agent rules", () => {
	const policy = policyFromConfig({
		agentRules: {
			deny: [{ kind: "subagent", name: "scraper" }, { kind: "ci" }],
			allow: [{ kind: "subagent" }, { kind: "human" }],
		},
	});

	it("an agent-rule deny matches by kind and exact name", () => {
		const decision = decide(readFile(`${CWD}/a`), policy, ctx({ origin: subagent("scraper") }));
		expect(decision.mode).toBe("deny");
		expect(basisOf(decision)).toBe("agent:subagent:scraper");
		expect(decide(readFile(`${CWD}/a`), policy, ctx({ origin: subagent("scraper2") })).mode).toBe("auto");
		expect(decide(readFile(`${CWD}/a`), policy, ctx({ origin: { kind: "ci", provider: null } })).mode).toBe(
			"deny",
		);
	});

	it("an agent-rule allow is reported but is not a bypass", () => {
		const decision = decide(writeFile(`${CWD}/a`), policy, ctx({ origin: subagent("planner") }));
		expect(decision.mode).toBe("ask");
		expect(decision.agentAllow).toMatchObject({ kind: "subagent", name: null, action: "allow" });
		expect(
			decide(writeFile(`${CWD}/a`), policy, ctx({ origin: { kind: "headless" } })).agentAllow,
		).toBeNull();
	});
});

describe("decide: parked approvals", () => {
	it("a parked approval for this hash answers an ask, even one forced by an ask rule", () => {
		const policy = rules(ask("command", "git push *"));
		const push = bash(["git push", "network-egress"]);
		expect(decide(push, policy, ctx()).mode).toBe("ask");
		const approved = decide(push, policy, ctx({ parkedApproval: APPROVED }));
		expect(approved).toMatchObject({ mode: "auto", basis: { kind: "parked_approval", hash: push.hash } });
	});

	it("for a guarded path, only an approval a human gave counts: not one a link, rule or grant settled (adr/0014)", () => {
		const hook = `${CWD}/.git/hooks/pre-commit`;
		const guarded = () =>
			action("write", [
				{
					...pathPart("privileged", touch("write", hook)),
					guard: { kind: "human", reason: "a git hook runs at the next git command" },
				},
			]);
		const policy = policyFromConfig({});
		const link = {
			...APPROVED,
			approvedBy: { kind: "authorizer", link: "ci-bot", verdict: "allow" },
		} as const;
		const relayedLink = {
			...APPROVED,
			approvedBy: { kind: "forwarded", responderSessionId: "root", decision: link.approvedBy },
		} as const;
		for (const approval of [link, relayedLink]) {
			expect(decide(guarded(), policy, ctx({ parkedApproval: approval }))).toMatchObject({
				mode: "ask",
				humanOnly: true,
				basis: { kind: "guard" },
			});
		}
		expect(decide(guarded(), policy, ctx({ parkedApproval: APPROVED }))).toMatchObject({
			mode: "auto",
			basis: { kind: "parked_approval" },
		});
		// Where any answer would do, a link's approval still counts.
		const push = bash(["git push", "network-egress"]);
		expect(decide(push, rules(ask("command", "git push *")), ctx({ parkedApproval: link })).mode).toBe(
			"auto",
		);
	});

	it("never outranks a deny rule, a deny tier or an agent deny", () => {
		const push = bash(["git push", "network-egress"]);
		expect(decide(push, rules(deny("command", "git push *")), ctx({ parkedApproval: APPROVED })).mode).toBe(
			"deny",
		);
		const denyTier = policyFromConfig({ tiers: { "network-egress": "deny" } });
		expect(decide(push, denyTier, ctx({ parkedApproval: APPROVED })).mode).toBe("deny");
		const agentDeny = policyFromConfig({ agentRules: { deny: [{ kind: "human" }] } });
		expect(decide(push, agentDeny, ctx({ parkedApproval: APPROVED })).mode).toBe("deny");
	});
});

describe("decide: ask rules and session grants", () => {
	it("an ask rule asks and is not grantable; a session grant does not silence it", () => {
		const policy = rules(ask("command", "npm publish *"), allow("command", "npm publish"));
		const publish = bash(["npm publish", "write"]);
		const decision = decide(publish, policy, ctx({ grants: [grant("command", "npm publish *")] }));
		expect(decision).toMatchObject({ mode: "ask", grantable: false });
		expect(basisOf(decision)).toBe("rule:command:npm publish *:ask");
	});

	it("a session grant covering the part runs it", () => {
		const g = grant("command", "npm install *");
		const decision = decide(
			bash(["npm install lodash", "network-egress"]),
			policyFromConfig({}),
			ctx({ grants: [g] }),
		);
		expect(decision).toMatchObject({ mode: "auto", basis: { kind: "session_grant", grant: g } });
	});

	it("a session grant never outranks a deny rule, a deny tier or an agent deny", () => {
		const g = grant("command", "rm *");
		const rm = bash(["rm -rf build", "destructive"]);
		expect(decide(rm, rules(deny("command", "rm -rf *")), ctx({ grants: [g] })).mode).toBe("deny");
		expect(decide(rm, policyFromConfig({ tiers: { destructive: "deny" } }), ctx({ grants: [g] })).mode).toBe(
			"deny",
		);
		const agentDeny = policyFromConfig({ agentRules: { deny: [{ kind: "subagent" }] } });
		expect(decide(rm, agentDeny, ctx({ grants: [g], origin: subagent("w") })).mode).toBe("deny");
		expect(decide(rm, policyFromConfig({}), ctx({ grants: [g] })).mode).toBe("auto");
	});

	it("tool grants cover every part of the tool; path grants cover path-only parts with the right access", () => {
		expect(
			decide(
				bash(["make", "write"], ["make test", "write"]),
				policyFromConfig({}),
				ctx({ grants: [grant("tool", "bash")] }),
			).mode,
		).toBe("auto");
		const policy = policyFromConfig({});
		const writeGrant = grant("write", `${CWD}/src/*`);
		expect(decide(writeFile(`${CWD}/src/a.ts`), policy, ctx({ grants: [writeGrant] })).mode).toBe("auto");
		expect(decide(writeFile(`${CWD}/src/deep/a.ts`), policy, ctx({ grants: [writeGrant] })).mode).toBe("ask");
		expect(
			decide(
				readFile(`${CWD}/src/a.ts`),
				policyFromConfig({ tiers: { read: "ask" } }),
				ctx({ grants: [writeGrant] }),
			).mode,
		).toBe("ask");
		// A path grant does not cover a command part that touches the path.
		const cmd = action("bash", [
			commandPart("touch src/a.ts", "write", { paths: [touch("write", `${CWD}/src/a.ts`)] }),
		]);
		expect(decide(cmd, policy, ctx({ grants: [writeGrant] })).mode).toBe("ask");
		// A symlink out of the granted directory is not covered.
		expect(
			decide(writeFile(`${CWD}/src/link`, `${HOME}/.bashrc`), policy, ctx({ grants: [writeGrant] })).mode,
		).toBe("ask");
	});
});

describe("decide: allow rules and the grant ceiling", () => {
	it("an allow rule within the ceiling runs the part", () => {
		const decision = decide(bash(["npm test", "write"]), rules(allow("command", "npm test")), ctx());
		expect(basisOf(decision)).toBe("rule:command:npm test:allow");
		expect(decision.mode).toBe("auto");
	});

	it("an allow rule on a destructive part does not approve it: it asks, with a note", () => {
		const decision = decide(
			bash(["rm -rf build", "destructive"]),
			rules(allow("command", "rm -rf build")),
			ctx(),
		);
		expect(decision).toMatchObject({ mode: "ask", grantable: true });
		expect(basisOf(decision)).toBe("tier:tier:destructive:ask");
		expect(decision.notes).toEqual([
			`allow command "rm -rf build" (${USER_FILE}, rules[0]) matches part 1 (rm -rf build) at tier destructive, above the grant ceiling (write); it is not auto-approved`,
		]);
	});

	it("with the ceiling raised to destructive in the user file, the same allow runs it", () => {
		const policy = policyFromConfig({
			rules: [allow("command", "rm -rf build")],
			grantCeiling: { tier: "destructive", reason: "throw-away VM" },
		});
		expect(decide(bash(["rm -rf build", "destructive"]), policy, ctx()).mode).toBe("auto");
		expect(
			decide(
				bash(["sudo reboot", "privileged"]),
				policyFromConfig({
					rules: [allow("command", "sudo *")],
					grantCeiling: { tier: "destructive", reason: "vm" },
				}),
				ctx(),
			).mode,
		).toBe("ask");
	});

	it("path allow rules must cover every path of a path-only part, with the right access", () => {
		const policy = rules(allow("write", "src/**"), allow("read", "docs/**"));
		const both = action("edit", [
			pathPart("write", touch("read", `${CWD}/docs/a.md`), touch("write", `${CWD}/src/a.ts`)),
		]);
		expect(decide(both, policy, ctx()).mode).toBe("auto");
		const oneUncovered = action("edit", [
			pathPart("write", touch("write", `${CWD}/docs/a.md`), touch("write", `${CWD}/src/a.ts`)),
		]);
		expect(decide(oneUncovered, policy, ctx()).mode).toBe("ask");
	});

	it("an allow rule does not follow a symlink out of what it names", () => {
		const policy = rules(allow("write", "src/**"));
		expect(decide(writeFile(`${CWD}/src/a.ts`), policy, ctx()).mode).toBe("auto");
		expect(decide(writeFile(`${CWD}/src/link`, `${HOME}/.bashrc`), policy, ctx()).mode).toBe("ask");
		const both = rules(allow("write", "src/**"), allow("write", "~/.bashrc"));
		expect(decide(writeFile(`${CWD}/src/link`, `${HOME}/.bashrc`), both, ctx()).mode).toBe("auto");
	});

	it("relative allow patterns do not reach outside the cwd; outside-cwd allows do", () => {
		expect(decide(writeFile("/srv/x.ts"), rules(allow("write", "**/*.ts")), ctx()).mode).toBe("ask");
		expect(decide(writeFile("/srv/x.ts"), rules(allow("outside-cwd", "/srv/**")), ctx()).mode).toBe("auto");
		expect(decide(writeFile(`${CWD}/x.ts`), rules(allow("outside-cwd", "**")), ctx()).mode).toBe("ask");
	});

	it("a command part is covered by a command or tool rule, not by path rules", () => {
		const part = commandPart("touch src/a.ts", "write", { paths: [touch("write", `${CWD}/src/a.ts`)] });
		expect(decide(action("bash", [part]), rules(allow("write", "src/**")), ctx()).mode).toBe("ask");
		expect(decide(action("bash", [part]), rules(allow("command", "touch *")), ctx()).mode).toBe("auto");
	});

	it("an allow rule sees only the command text itself (no basename widening)", () => {
		const part = commandPart("/tmp/evil/git status", "write");
		expect(decide(action("bash", [part]), rules(allow("command", "git status")), ctx()).mode).toBe("ask");
	});

	it("a tool allow rule covers parts of that tool", () => {
		expect(decide(action("todo", [toolPart("write")]), rules(allow("tool", "todo")), ctx()).mode).toBe(
			"auto",
		);
	});
});

describe("decide: several parts", () => {
	it("strictest part wins: deny > ask > auto", () => {
		const policy = rules(allow("command", "ls *"), ask("command", "git push *"), deny("command", "curl *"));
		expect(decide(bash(["ls", "read"], ["git push", "network-egress"]), policy, ctx()).mode).toBe("ask");
		expect(
			decide(
				bash(["ls", "read"], ["git push", "network-egress"], ["curl x", "network-egress"]),
				policy,
				ctx(),
			).mode,
		).toBe("deny");
		expect(decide(bash(["ls", "read"], ["ls -la", "read"]), policy, ctx()).mode).toBe("auto");
	});

	it("auto with several parts reports the highest-tier part's basis", () => {
		const policy = rules(allow("command", "npm run build"));
		const decision = decide(bash(["ls", "read"], ["npm run build", "write"], ["pwd", "read"]), policy, ctx());
		expect(decision.mode).toBe("auto");
		expect(basisOf(decision)).toBe("rule:command:npm run build:allow");
		if (decision.basis.kind !== "rule") throw new Error("expected rule basis");
		expect(decision.basis.part.index).toBe(1);
	});

	it("an ask reports a forcing ask rule first, lists the asking parts, and is then not grantable", () => {
		const policy = rules(ask("command", "git push *"));
		const decision = decide(
			bash(["rm -rf build", "destructive"], ["git push", "network-egress"], ["ls", "read"]),
			policy,
			ctx(),
		);
		expect(decision).toMatchObject({ mode: "ask", grantable: false });
		expect(basisOf(decision)).toBe("rule:command:git push *:ask");
		if (decision.mode !== "ask") throw new Error("expected ask");
		expect(decision.askingParts.map((p) => p.index)).toEqual([0, 1]);
	});

	it("the highest-tier asking part names a tier ask", () => {
		const decision = decide(
			bash(["touch a", "write"], ["rm -rf build", "destructive"]),
			policyFromConfig({}),
			ctx(),
		);
		expect(basisOf(decision)).toBe("tier:tier:destructive:ask");
	});
});

describe("decide: tier floors from config", () => {
	it("commandTiers raise a part's tier (and so can push it above the ceiling)", () => {
		const policy = policyFromConfig({
			rules: [allow("command", "make *")],
			commandTiers: [{ pattern: "make deploy *", tier: "spend" }],
		});
		expect(decide(bash(["make test", "write"]), policy, ctx()).mode).toBe("auto");
		const deploy = decide(bash(["make deploy prod", "write"]), policy, ctx());
		expect(deploy.mode).toBe("ask");
		expect(basisOf(deploy)).toBe("tier:tier:spend:ask");
	});

	it("a project's toolTiers raise every part of the tool", () => {
		const policy = policyFromConfig(
			{ rules: [allow("tool", "notes")] },
			{ toolTiers: { notes: "destructive" } },
		);
		expect(decide(action("notes", [toolPart("write")]), policy, ctx()).mode).toBe("ask");
	});

	it("an action without parts is decided at its own tier", () => {
		const bare: ClassifiedAction = { ...action("mystery", []), tier: "privileged" };
		const decision = decide(bare, policyFromConfig({}), ctx());
		expect(basisOf(decision)).toBe("tier:tier:privileged:ask");
		expect(decide(bare, policyFromConfig({ tiers: { destructive: "deny" } }), ctx()).mode).toBe("deny");
	});
});

describe("primitives for a parent deciding a child's forwarded ask", () => {
	it("findDeny applies denies only: allow rules and tier defaults do not approve", () => {
		const policy = rules(allow("command", "npm test"), deny("command", "curl *"));
		expect(findDeny(bash(["npm test", "write"]), policy, subagent("w"))).toBeNull();
		expect(findDeny(bash(["curl x", "network-egress"]), policy, subagent("w"))?.basis.kind).toBe("rule");
		expect(
			findDeny(readFile(`${CWD}/a`), policyFromConfig({ tiers: { read: "deny" } }), subagent("w"))?.basis
				.kind,
		).toBe("tier");
	});

	it("findCoveringGrant needs every part covered and names the highest-tier part's grant", () => {
		const policy = policyFromConfig({});
		const install = grant("command", "npm install *", "g1");
		const build = grant("command", "npm run build", "g2");
		const chain = bash(["npm run build", "write"], ["npm install x", "network-egress"]);
		expect(findCoveringGrant(chain, [build, install], policy, HUMAN)?.id).toBe("g1");
		expect(findCoveringGrant(chain, [build], policy, HUMAN)).toBeNull();
		expect(findCoveringGrant(action("mystery", []), [grant("command", "*")], policy, HUMAN)).toBeNull();
		expect(findCoveringGrant(action("mystery", []), [grant("tool", "mystery")], policy, HUMAN)?.surface).toBe(
			"tool",
		);
	});

	it("findCoveringGrant never answers what an ask rule asks, as decide does not (a parent deciding a forwarded ask)", () => {
		const policy = rules(ask("command", "npm publish *"));
		const publish = bash(["npm publish", "write"]);
		const tree = [{ ...grant("command", "npm *"), scope: "tree" as const }];
		expect(decide(publish, policy, ctx({ grants: tree }))).toMatchObject({ mode: "ask", grantable: false });
		expect(findCoveringGrant(publish, tree, policy, subagent("w"))).toBeNull();
		expect(forwardedAskLimits(publish, policy, subagent("w")).byRule).toBe(true);
		// A part no ask rule matches is still covered.
		const install = bash(["npm install x", "network-egress"]);
		expect(findCoveringGrant(install, tree, policy, subagent("w"))?.scope).toBe("tree");
		expect(forwardedAskLimits(install, policy, subagent("w")).byRule).toBe(false);
	});
});
