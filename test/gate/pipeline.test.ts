import { beforeAll, describe, expect, it } from "vitest";
import { buildForwardRequest, relayForwardRequest } from "../../src/authority/build-forward-request.ts";
import { NobodyAuthorizer } from "../../src/authority/choose-terminal.ts";
import type { DialogResult } from "../../src/authority/dialog-presenter.ts";
import type { ToolCall } from "../../src/classify/action.ts";
import { actionHash } from "../../src/classify/action-hash.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { serverAnswerOf } from "../../src/gate/forwarded-asks.ts";
import type { GateDeps } from "../../src/gate/gate-deps.ts";
import type { GateRequest } from "../../src/gate/gate-outcome.ts";
import { excludedFromSandbox, sandboxProfileFor } from "../../src/gate/sandboxing.ts";
import type { ParkedStore } from "../../src/hub/parked-store.ts";
import type { ForwardRequest } from "../../src/hub/protocol.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import type { DecisionSource } from "../../src/provenance/decision-source.ts";
import { askFor } from "../authority/ask-fixture.ts";
import { bashParser, CWD } from "../classify/classify-fixture.ts";
import { policyFromConfig } from "../policy/fixtures.ts";
import { pipelineWorld, type WorldOptions } from "./pipeline-world.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const allowOnce: DialogResult = { kind: "answer", answer: { kind: "allow", scope: "once" } };

const world = (policy: EffectivePolicy, options: WorldOptions = {}) => pipelineWorld(bash, policy, options);

const bashCall = (command: string): GateRequest => ({
	kind: "tool_call",
	call: { tool: "bash", input: { command }, cwd: CWD },
});

/** What a child with the built-in defaults sends up for `command`. */
function childRequest(command: string, overrides: Partial<ForwardRequest> = {}): ForwardRequest {
	const ask = askFor(bash, command);
	return { ...buildForwardRequest(ask, { sessionId: "child-1", path: ["root", "worker"] }), ...overrides };
}

const forwarded = (request: ForwardRequest): GateRequest => ({
	kind: "forwarded",
	served: { request, signal: new AbortController().signal },
});

describe("the pipeline: this session's own tool calls", () => {
	it("a read runs without asking anyone, decided by the policy step", async () => {
		const { pipeline, presenter } = world(policyFromConfig({}));
		const { outcome } = await pipeline.run(bashCall("ls -la"));
		expect(outcome).toMatchObject({ outcome: "allow", mode: "auto", chain: [] });
		expect(outcome.source.kind).toBe("rule");
		expect(outcome.why).toBeUndefined();
		expect(presenter.shown).toEqual([]);
	});

	it("a deny rule blocks before any link or dialog, and the reason names the rule", async () => {
		const policy = policyFromConfig({
			rules: [{ surface: "command", pattern: "curl *", action: "deny", reason: "no network" }],
		});
		const { pipeline, presenter, linkCalls } = world(policy, {
			links: { judge: async () => ({ verdict: "allow" }) },
		});
		const { outcome } = await pipeline.run(bashCall("curl https://example.com"));
		expect(outcome).toMatchObject({
			outcome: "deny",
			mode: "deny",
			source: { kind: "rule", action: "deny" },
		});
		expect(outcome.reason).toContain('matches the deny rule command "curl *"');
		expect(outcome.reason).toContain("Reason: no network.");
		expect(linkCalls).toEqual([]);
		expect(presenter.shown).toEqual([]);
	});

	it("an ask goes to the links first; the first decisive link decides, recorded in the chain", async () => {
		const policy = policyFromConfig({ authorizerChain: ["shrug", "judge"] });
		const { pipeline, presenter } = world(policy, {
			links: {
				shrug: async () => ({ verdict: "defer" }),
				judge: async () => ({ verdict: "allow", reason: "ok" }),
			},
		});
		const { outcome } = await pipeline.run(bashCall("npm install left-pad"));
		expect(outcome).toMatchObject({ outcome: "allow", mode: "ask" });
		expect(outcome.source).toEqual({ kind: "authorizer", link: "judge", verdict: "allow", reason: "ok" });
		expect(outcome.chain.map((s) => [s.link, s.result])).toEqual([
			["shrug", "defer"],
			["judge", "allow"],
		]);
		expect(outcome.why).toBeTruthy();
		expect(presenter.shown).toEqual([]);
	});

	it("with no decisive link the human decides; a session grant they give allows the next identical call", async () => {
		const { pipeline, presenter, grants } = world(policyFromConfig({}), {
			script: [{ kind: "answer", answer: { kind: "allow", scope: "session" } }],
		});
		const first = await pipeline.run(bashCall("npm install left-pad"));
		expect(first.outcome).toMatchObject({ outcome: "allow", mode: "ask" });
		expect(first.outcome.source).toMatchObject({ kind: "user", via: "dialog", scope: "session" });
		expect(grants.list()).toHaveLength(1);
		const second = await pipeline.run(bashCall("npm install left-pad"));
		expect(second.outcome).toMatchObject({ outcome: "allow", mode: "auto" });
		expect(second.outcome.source.kind).toBe("session_grant");
		expect(presenter.shown).toHaveLength(1);
	});

	it("'Always allow' saves the grant's patterns for this directory and holds at once as a session grant", async () => {
		const { pipeline, presenter, grants, saved } = world(policyFromConfig({}), {
			script: [{ kind: "answer", answer: { kind: "always", verdict: "allow", where: "project" } }],
		});
		const first = await pipeline.run(bashCall("npm install left-pad"));
		expect(presenter.shown[0]?.prompt.choices.map((c) => c.key)).toEqual(["y", "s", "n", "r", "x"]);
		expect(first.outcome).toMatchObject({ outcome: "allow" });
		expect(first.outcome.source).toMatchObject({ kind: "user", verdict: "allow", scope: "always" });
		expect(saved).toEqual([
			{
				save: {
					verdict: "allow",
					where: "project",
					suggestions: [
						{
							surface: "command",
							pattern: "npm install *",
							limit: { tier: "network-egress", outsideCwd: false },
						},
					],
				},
				directory: CWD,
			},
		]);
		expect(grants.list().map((g) => [g.pattern, g.scope])).toEqual([["npm install *", "session"]]);
	});

	it("'Always allow' is offered only within the grant ceiling; 'Always deny' whenever a grant is", async () => {
		const { pipeline, presenter, saved } = world(policyFromConfig({}), {
			script: [
				{ kind: "answer", answer: { kind: "always", verdict: "deny", where: "project" } },
				{ kind: "answer", answer: { kind: "deny", withReason: false } },
			],
		});
		const denied = await pipeline.run(bashCall("touch notes.txt"));
		expect(denied.outcome).toMatchObject({ outcome: "deny" });
		expect(denied.outcome.source).toMatchObject({ kind: "user", verdict: "deny", scope: "always" });
		expect(presenter.shown[0]?.prompt.choices.map((c) => c.key)).toEqual(["y", "s", "p", "e", "n", "r", "x"]);
		expect(saved.map((s) => [s.save.verdict, s.save.suggestions.map((g) => g.pattern)])).toEqual([
			["deny", ["touch *"]],
		]);
		await pipeline.run(bashCall("sudo reboot"));
		expect(presenter.shown[1]?.prompt.choices.map((c) => c.key)).toEqual(["y", "s", "n", "r"]);
	});

	describe("permission modes (adr/0023)", () => {
		it("plan refuses everything above read, rules and grants included, and lets reads run", async () => {
			const policy = policyFromConfig({
				rules: [{ surface: "command", pattern: "touch *", action: "allow" }],
			});
			const { pipeline, presenter } = world(policy, { permissionMode: "plan" });
			const write = await pipeline.run(bashCall("touch notes.txt"));
			expect(write.outcome).toMatchObject({ outcome: "deny", source: { kind: "mode", mode: "plan" } });
			expect(write.outcome.reason).toContain("this session is in plan mode, where only reads run");
			const read = await pipeline.run(bashCall("ls"));
			expect(read.outcome.outcome).toBe("allow");
			expect(presenter.shown).toEqual([]);
		});

		it("accept-edits lets a write inside the project run unasked, and nothing else", async () => {
			const { pipeline, presenter } = world(policyFromConfig({}), {
				permissionMode: "accept-edits",
				script: [
					{ kind: "answer", answer: { kind: "deny", withReason: false } },
					{ kind: "answer", answer: { kind: "deny", withReason: false } },
				],
			});
			const inside = await pipeline.run(bashCall("touch notes.txt"));
			expect(inside.outcome).toMatchObject({
				outcome: "allow",
				mode: "auto",
				source: { kind: "mode", mode: "accept-edits" },
			});
			expect((await pipeline.run(bashCall("touch /home/dev/elsewhere.txt"))).outcome.source).toMatchObject({
				kind: "user",
				via: "dialog",
			});
			expect((await pipeline.run(bashCall("npm install left-pad"))).outcome.source).toMatchObject({
				kind: "user",
				via: "dialog",
			});
			expect(presenter.shown).toHaveLength(2);
		});

		it("accept-edits leaves a program run to a human, and the dialog says why", async () => {
			const { pipeline, presenter } = world(policyFromConfig({}), {
				permissionMode: "accept-edits",
				sandboxContains: true,
				script: [
					{ kind: "answer", answer: { kind: "deny", withReason: false } },
					{ kind: "answer", answer: { kind: "deny", withReason: false } },
				],
			});
			const program = await pipeline.run(bashCall("python3 fmt.py"));
			expect(program.outcome).toMatchObject({ outcome: "deny", source: { kind: "user" } });
			expect(program.outcome.why).toContain(
				"accept-edits accepts edits, not program runs: `python3` runs a program",
			);
			const wrapped = await pipeline.run(bashCall("taskset -c 0 rm -rf src"));
			expect(wrapped.outcome.why).toContain("`taskset` runs a program");
			expect(presenter.shown).toHaveLength(2);
		});

		it("trusted runs a program unasked only where the sandbox contains it", async () => {
			const bare = world(policyFromConfig({}), {
				permissionMode: "trusted",
				sandboxContains: false,
				script: [{ kind: "answer", answer: { kind: "deny", withReason: false } }],
			});
			const asked = await bare.pipeline.run(bashCall("python3 fmt.py"));
			expect(asked.outcome).toMatchObject({ outcome: "deny", source: { kind: "user", via: "dialog" } });
			expect(asked.outcome.why).toContain("trusted runs programs unasked only inside the sandbox");
			expect((await bare.pipeline.run(bashCall("rm -rf build"))).outcome.source).toEqual({
				kind: "mode",
				mode: "trusted",
			});
			const sandboxed = world(policyFromConfig({}), { permissionMode: "trusted", sandboxContains: true });
			expect((await sandboxed.pipeline.run(bashCall("python3 fmt.py"))).outcome).toMatchObject({
				outcome: "allow",
				source: { kind: "mode", mode: "trusted" },
			});
			expect(sandboxed.presenter.shown).toEqual([]);
		});

		it("sandboxed runs a program unasked only inside the sandbox, never with the network", async () => {
			const contained = world(policyFromConfig({}), {
				permissionMode: "sandboxed",
				sandboxContains: true,
				script: [{ kind: "answer", answer: { kind: "deny", withReason: false } }],
			});
			expect((await contained.pipeline.run(bashCall("python3 fmt.py"))).outcome).toMatchObject({
				outcome: "allow",
				source: { kind: "mode", mode: "sandboxed" },
			});
			const network = await contained.pipeline.run(bashCall("curl -o page.html https://example.com"));
			expect(network.outcome.source).toMatchObject({ kind: "user", via: "dialog" });
			const bare = world(policyFromConfig({}), {
				permissionMode: "sandboxed",
				sandboxContains: false,
				script: [{ kind: "answer", answer: { kind: "deny", withReason: false } }],
			});
			const asked = await bare.pipeline.run(bashCall("python3 fmt.py"));
			expect(asked.outcome.source).toMatchObject({ kind: "user", via: "dialog" });
			expect(asked.outcome.why).toContain("sandboxed runs programs unasked only inside the sandbox");
			expect((await bare.pipeline.run(bashCall("touch notes.txt"))).outcome.source).toEqual({
				kind: "mode",
				mode: "sandboxed",
			});
		});

		it("dont-ask refuses every ask without a dialog, and leaves what the policy allows alone", async () => {
			const { pipeline, presenter } = world(policyFromConfig({}), { permissionMode: "dont-ask" });
			const asked = await pipeline.run(bashCall("rm -f build.log"));
			expect(asked.outcome).toMatchObject({ outcome: "deny", source: { kind: "mode", mode: "dont-ask" } });
			expect(asked.outcome.reason).toContain("this session's permission mode is dont-ask");
			expect((await pipeline.run(bashCall("cat README.md"))).outcome.outcome).toBe("allow");
			expect(presenter.shown).toEqual([]);
		});

		it("trusted allows asks up to destructive; privileged calls, deny rules, ask rules and guarded paths still hold", async () => {
			const policy = policyFromConfig({
				rules: [
					{ surface: "command", pattern: "git push --force*", action: "deny" },
					{ surface: "command", pattern: "terraform *", action: "ask" },
				],
			});
			const { pipeline, presenter } = world(policy, {
				permissionMode: "trusted",
				script: [
					{ kind: "answer", answer: { kind: "deny", withReason: false } },
					{ kind: "answer", answer: { kind: "deny", withReason: false } },
					{ kind: "answer", answer: { kind: "deny", withReason: false } },
				],
			});
			const destructive = await pipeline.run(bashCall("rm -rf build"));
			expect(destructive.outcome).toMatchObject({
				outcome: "allow",
				source: { kind: "mode", mode: "trusted" },
			});
			const denied = await pipeline.run(bashCall("git push --force origin main"));
			expect(denied.outcome).toMatchObject({ outcome: "deny", source: { kind: "rule", action: "deny" } });
			for (const command of ["sudo reboot", "terraform apply", "echo x > .git/hooks/pre-commit"]) {
				expect((await pipeline.run(bashCall(command))).outcome.source, command).toMatchObject({
					kind: "user",
					via: "dialog",
				});
			}
			expect(presenter.shown).toHaveLength(3);
		});

		it("trusted writes nothing outside the project unasked, by any tool; a user's rule for the path still allows", async () => {
			const denyEach = { kind: "answer", answer: { kind: "deny", withReason: false } } as const;
			const policy = policyFromConfig({
				rules: [{ surface: "write", pattern: "/home/dev/scratch/**", action: "allow" }],
			});
			const { pipeline, presenter } = world(policy, {
				permissionMode: "trusted",
				script: [denyEach, denyEach, denyEach],
			});
			const outside: GateRequest[] = [
				bashCall("echo 'import os; os.system(\"id\")' > /home/dev/.local/lib/python3.12/site-packages/x.pth"),
				bashCall("cp evil /home/dev/.config/autostart/x.desktop"),
				{
					kind: "tool_call",
					call: {
						tool: "write",
						input: { path: "/home/dev/.npmrc", content: "node-options=--require /x" },
						cwd: CWD,
					},
				},
			];
			for (const request of outside) {
				expect((await pipeline.run(request)).outcome.source).toMatchObject({ kind: "user", via: "dialog" });
			}
			expect(presenter.shown).toHaveLength(3);
			const ruled = await pipeline.run(bashCall("touch /home/dev/scratch/notes.txt"));
			expect(ruled.outcome).toMatchObject({ outcome: "allow", source: { kind: "rule" } });
			const inside = await pipeline.run(bashCall("cp a.txt b.txt"));
			expect(inside.outcome).toMatchObject({ outcome: "allow", source: { kind: "mode", mode: "trusted" } });
		});
	});

	it("a write to a guarded path skips every link, even one that would allow, and offers no grant", async () => {
		const policy = policyFromConfig({ authorizerChain: ["yes"] });
		const { pipeline, presenter, linkCalls } = world(policy, {
			links: { yes: async () => ({ verdict: "allow" }) },
			script: [{ kind: "answer", answer: { kind: "deny", withReason: false } }],
		});
		const { outcome } = await pipeline.run(bashCall("echo x > .git/hooks/pre-commit"));
		expect(linkCalls).toEqual([]);
		expect(presenter.shown).toHaveLength(1);
		expect(presenter.shown[0]?.prompt.choices.map((c) => c.answer.kind)).toEqual(["allow", "deny", "deny"]);
		expect(outcome).toMatchObject({ outcome: "deny", mode: "ask", source: { kind: "user", via: "dialog" } });
		expect(outcome.reason).toContain("The user denied");
	});

	it("with nobody to ask the call is refused as unavailable, never as a user denial", async () => {
		const { pipeline } = world(policyFromConfig({}), {
			terminal: new NobodyAuthorizer("no UI and no parent", null),
		});
		const { outcome } = await pipeline.run(bashCall("npm install left-pad"));
		expect(outcome).toMatchObject({ outcome: "deny", mode: "ask" });
		expect(outcome.source).toEqual({ kind: "unavailable", reason: "no UI and no parent" });
		expect(outcome.reason).toContain("no one could be asked");
		expect(outcome.reason).toContain("This is not a user denial.");
	});

	it("a delegation whose children would run ungated asks a human even though the policy allows the call", async () => {
		const delegation: GateDeps["delegation"] = (call: ToolCall) =>
			call.tool === "subagent"
				? ({
						launcher: { kind: "pi-subagents" },
						call: { tool: "subagent" },
						verdict: {
							gated: false,
							why: "the children load only their own extensions",
							fix: { text: "add the gate to settings.json" },
						},
						uncontained: null,
					} as unknown as ReturnType<GateDeps["delegation"]>)
				: null;
		const policy = policyFromConfig({
			authorizerChain: ["yes"],
			rules: [{ surface: "tool", pattern: "subagent", action: "allow" }],
		});
		const { pipeline, presenter, linkCalls } = world(policy, {
			delegation,
			links: { yes: async () => ({ verdict: "allow" }) },
			script: [allowOnce],
		});
		const { outcome } = await pipeline.run({
			kind: "tool_call",
			call: { tool: "subagent", input: { task: "refactor" }, cwd: CWD },
		});
		expect(linkCalls).toEqual([]);
		expect(presenter.shown).toHaveLength(1);
		expect(presenter.shown[0]?.prompt.lines.join("\n")).toContain("without permission checks");
		expect(presenter.shown[0]?.prompt.choices.map((c) => c.answer.kind)).toEqual(["allow", "deny", "deny"]);
		expect(outcome).toMatchObject({ outcome: "allow", mode: "ask", source: { kind: "user", via: "dialog" } });
		expect(outcome.chain.map((s) => [s.link, s.result])).toEqual([
			["pi-permission-hub:delegation-guard", "defer"],
		]);
	});

	it("fix and continue: offered only when a settings change can gate the children; allowed only once it holds", async () => {
		const automatic = {
			change: { file: "/agent/settings.json", key: "packages", before: null, after: ["/pph"] },
			analysedText: null,
		};
		const ungatedWith =
			(fix: object): GateDeps["delegation"] =>
			(call: ToolCall) =>
				call.tool === "subagent"
					? ({
							launcher: { kind: "process-subagent" },
							call: { tool: "subagent" },
							verdict: { gated: false, why: "no gate in the agent dir", fix: { text: "add it", ...fix } },
							uncontained: null,
						} as unknown as ReturnType<GateDeps["delegation"]>)
					: null;
		const call = { kind: "tool_call", call: { tool: "subagent", input: { task: "t" }, cwd: CWD } } as const;
		const fix: DialogResult = { kind: "answer", answer: { kind: "fix" } };

		const none = world(policyFromConfig({}), {
			delegation: ungatedWith({ automatic: null }),
			script: [allowOnce],
		});
		await none.pipeline.run(call);
		expect(none.presenter.shown[0]?.prompt.choices.map((c) => c.key)).toEqual(["y", "n", "r"]);

		const fixes: unknown[] = [];
		const fixed = world(policyFromConfig({}), {
			delegation: ungatedWith({ automatic }),
			fixDelegation: (_call, planned) => {
				fixes.push(planned);
				return { gated: true, file: "/agent/settings.json", via: "`packages` in /agent/settings.json" };
			},
			script: [fix],
		});
		const allowed = await fixed.pipeline.run(call);
		expect(fixed.presenter.shown[0]?.prompt.choices[0]).toEqual({
			key: "f",
			label: "Add the gate to /agent/settings.json and continue",
			answer: { kind: "fix" },
		});
		// The change the dialog offered is the one written, not one worked out again.
		expect(fixes).toHaveLength(1);
		expect(fixes[0]).toBe(automatic);
		expect(allowed.outcome).toMatchObject({ outcome: "allow", source: { kind: "user", via: "dialog" } });
		expect(allowed.outcome.reason).toContain("after the gate was added to /agent/settings.json");

		const failed = world(policyFromConfig({}), {
			delegation: ungatedWith({ automatic }),
			fixDelegation: () => ({
				gated: false,
				reason: "the change to /agent/settings.json could not be written: EACCES",
			}),
			script: [fix],
		});
		const blocked = await failed.pipeline.run(call);
		expect(blocked.outcome).toMatchObject({ outcome: "deny", source: { kind: "gate_error" } });
		expect(blocked.outcome.reason).toContain("could not be written: EACCES");
	});

	it("an error anywhere in the gate blocks the call as a gate error", async () => {
		const { pipeline } = world(policyFromConfig({}), { classifierFails: true });
		const { outcome, policy } = await pipeline.run(bashCall("ls"));
		expect(outcome).toMatchObject({ outcome: "deny", mode: "deny", action: null });
		expect(outcome.source).toEqual({ kind: "gate_error", reason: "the grammar went away" });
		expect(policy).not.toBeNull();
	});
});

describe("the pipeline: commands the human typed", () => {
	it("run whatever no deny rule forbids, recorded as the human's decision", async () => {
		const { pipeline, presenter } = world(policyFromConfig({}));
		const { outcome } = await pipeline.run({ kind: "user_bash", command: "rm -rf build", cwd: CWD });
		expect(outcome).toMatchObject({ outcome: "allow", mode: "auto" });
		expect(outcome.source).toEqual({ kind: "user", via: "typed", verdict: "allow", scope: "once" });
		expect(presenter.shown).toEqual([]);
	});

	it("deny rules still hold, and the reason speaks of the command", async () => {
		const policy = policyFromConfig({ rules: [{ surface: "command", pattern: "rm -rf *", action: "deny" }] });
		const { pipeline } = world(policy);
		const { outcome } = await pipeline.run({ kind: "user_bash", command: "rm -rf build", cwd: CWD });
		expect(outcome).toMatchObject({
			outcome: "deny",
			mode: "deny",
			source: { kind: "rule", action: "deny" },
		});
		expect(outcome.reason).toContain("this command (rm -rf build)");
	});
});

describe("the pipeline: asks a child forwarded", () => {
	it("this session's allow rules do not approve a child's ask: its human is asked", async () => {
		const policy = policyFromConfig({
			rules: [{ surface: "command", pattern: "npm install *", action: "allow" }],
		});
		const { pipeline, presenter } = world(policy, { script: [allowOnce] });
		const { outcome, origin } = await pipeline.run(forwarded(childRequest("npm install left-pad")));
		expect(presenter.shown).toHaveLength(1);
		expect(origin).toMatchObject({ kind: "subagent", name: "worker" });
		expect(outcome).toMatchObject({ outcome: "allow", mode: "ask", source: { kind: "user", via: "dialog" } });
		expect(serverAnswerOf(outcome)).toMatchObject({ decision: "allow", scope: "once", grants: [] });
	});

	it("a request whose declared tier does not match its input is refused without asking anyone", async () => {
		const { pipeline, presenter } = world(policyFromConfig({}));
		const honest = childRequest("rm -rf build");
		const { outcome } = await pipeline.run(forwarded({ ...honest, input: { command: "rm -rf /" } }));
		expect(outcome).toMatchObject({ outcome: "deny", mode: "deny", action: null });
		expect(outcome.source.kind).toBe("unavailable");
		expect(serverAnswerOf(outcome).reason).toContain("does not match its own action");
		expect(presenter.shown).toEqual([]);
	});

	it("a whole-tree grant the human gives answers the child's later identical ask without a dialog", async () => {
		const { pipeline, presenter, grants } = world(policyFromConfig({}), {
			script: [{ kind: "answer", answer: { kind: "allow", scope: "tree" } }],
		});
		const first = await pipeline.run(forwarded(childRequest("npm install left-pad")));
		expect(serverAnswerOf(first.outcome)).toMatchObject({ decision: "allow", scope: "tree", grants: [] });
		expect(grants.list().map((g) => g.scope)).toEqual(["tree"]);
		const second = await pipeline.run(forwarded(childRequest("npm install left-pad")));
		expect(second.outcome).toMatchObject({ outcome: "allow", mode: "ask" });
		expect(second.outcome.source.kind).toBe("session_grant");
		expect(presenter.shown).toHaveLength(1);
	});

	it("grants for the asking subagent go back to it and are not kept by this session", async () => {
		const { pipeline, grants } = world(policyFromConfig({}), {
			script: [{ kind: "answer", answer: { kind: "allow", scope: "subagent" } }],
		});
		const { outcome } = await pipeline.run(forwarded(childRequest("npm install left-pad")));
		const answer = serverAnswerOf(outcome);
		expect(answer).toMatchObject({ decision: "allow", scope: "subagent" });
		expect(answer.grants.length).toBeGreaterThan(0);
		expect(grants.list()).toEqual([]);
	});

	it("a child whose own config raised the tier is stricter, not lying: its ask is shown at that tier", async () => {
		const { pipeline, presenter } = world(policyFromConfig({}), { script: [allowOnce] });
		const honest = childRequest("npm install left-pad");
		const raised = { ...honest, tier: "destructive" as const };
		const request = { ...raised, actionHash: actionHash({ ...raised, input: honest.input }) };
		const { outcome } = await pipeline.run(forwarded(request));
		expect(outcome).toMatchObject({ outcome: "allow", source: { kind: "user", via: "dialog" } });
		expect(outcome.action).toMatchObject({ tier: "destructive", hash: request.actionHash });
		expect(presenter.shown).toHaveLength(1);
	});

	it("a tool only the child knows keeps the stricter of the two tiers (here this session's: unknown is privileged) and the child's hash", async () => {
		const { pipeline, presenter } = world(policyFromConfig({}), { script: [allowOnce] });
		const input = { query: "select 1" };
		const request = {
			...childRequest("npm install left-pad"),
			tool: "mcp_database",
			input,
			tier: "read" as const,
			actionHash: "a".repeat(64),
		};
		const { outcome } = await pipeline.run(forwarded(request));
		expect(outcome.action).toMatchObject({ tool: "mcp_database", tier: "privileged", hash: "a".repeat(64) });
		expect(presenter.shown).toHaveLength(1);
	});

	it("this session's deny rules refuse a child's ask, and the answer carries why", async () => {
		const policy = policyFromConfig({ rules: [{ surface: "command", pattern: "npm *", action: "deny" }] });
		const { pipeline, presenter } = world(policy);
		const { outcome } = await pipeline.run(forwarded(childRequest("npm install left-pad")));
		expect(outcome).toMatchObject({
			outcome: "deny",
			mode: "deny",
			source: { kind: "rule", action: "deny" },
		});
		expect(serverAnswerOf(outcome).reason).toContain('matches the deny rule command "npm *"');
		expect(presenter.shown).toEqual([]);
	});
});

/** Park the child's request for `command` and settle it with `source`, as the session that served it would. */
async function settleParked(parked: ParkedStore, command: string, source: DecisionSource): Promise<void> {
	const request = childRequest(command);
	await parked.park(request);
	expect(parked.answer(request.id, "allow", source, "root-session")).toMatchObject({ ok: true });
}

const LINK_ALLOWED: DecisionSource = { kind: "authorizer", link: "ci-bot", verdict: "allow" };
const CLI_ALLOWED: DecisionSource = { kind: "user", via: "cli", verdict: "allow", scope: "once" };
const denyOnce: DialogResult = { kind: "answer", answer: { kind: "deny", withReason: false } };
const HOOK_WRITE = "echo x > .git/hooks/pre-commit";

describe("the pipeline: parked approvals for asks only a human may answer", () => {
	it("one a link settled does not answer a write to a guarded path: this session's human is asked", async () => {
		const { pipeline, presenter, parked } = world(policyFromConfig({}), { script: [denyOnce] });
		await settleParked(parked, HOOK_WRITE, LINK_ALLOWED);
		const { outcome } = await pipeline.run(bashCall(HOOK_WRITE));
		expect(outcome).toMatchObject({ outcome: "deny", mode: "ask", source: { kind: "user", via: "dialog" } });
		expect(presenter.shown).toHaveLength(1);
		// Not used up: it still answers an ask any answer may settle.
		expect(parked.find(outcome.action?.hash ?? "")).not.toBeNull();
	});

	it("one a human settled does answer it, once", async () => {
		const { pipeline, presenter, parked } = world(policyFromConfig({}));
		await settleParked(parked, HOOK_WRITE, CLI_ALLOWED);
		const { outcome } = await pipeline.run(bashCall(HOOK_WRITE));
		expect(outcome).toMatchObject({ outcome: "allow", mode: "auto" });
		expect(outcome.source).toMatchObject({ kind: "parked_approval", approvedBy: CLI_ALLOWED });
		expect(presenter.shown).toEqual([]);
	});

	it("a child's forwarded write to a guarded path is asked of this session's human despite a link's approval", async () => {
		const { pipeline, presenter, parked } = world(policyFromConfig({}), { script: [denyOnce] });
		await settleParked(parked, HOOK_WRITE, LINK_ALLOWED);
		const { outcome } = await pipeline.run(forwarded(childRequest(HOOK_WRITE)));
		expect(outcome).toMatchObject({ outcome: "deny", mode: "ask", source: { kind: "user", via: "dialog" } });
		expect(presenter.shown).toHaveLength(1);
	});

	it("sandbox.required: a link's parked approval does not run a call unsandboxed; a human's does", async () => {
		const policy = policyFromConfig({
			rules: [{ surface: "command", pattern: "touch *", action: "allow" }],
			sandbox: { required: true },
		});
		const missing =
			"the sandbox is required, but no sandbox can run here: bubblewrap (bwrap) is not installed";
		const byLink = world(policy, { script: [denyOnce], sandboxMissing: missing });
		await settleParked(byLink.parked, "touch notes.txt", LINK_ALLOWED);
		const asked = await byLink.pipeline.run(bashCall("touch notes.txt"));
		expect(asked.outcome).toMatchObject({ outcome: "deny", source: { kind: "user", via: "dialog" } });
		expect(asked.outcome.why).toBe(missing);
		const byHuman = world(policy, { sandboxMissing: missing });
		await settleParked(byHuman.parked, "touch notes.txt", CLI_ALLOWED);
		const approved = await byHuman.pipeline.run(bashCall("touch notes.txt"));
		expect(approved.outcome).toMatchObject({ outcome: "allow" });
		expect(approved.outcome.source.kind).toBe("parked_approval");
		expect(byHuman.presenter.shown).toEqual([]);
	});
});

describe("a write or edit that a tool other than the gate's would run (adr/0014)", () => {
	const uncontained = "another extension's write tool (/x/ext.ts) runs it, not the gate's";
	const writeCall: GateRequest = {
		kind: "tool_call",
		call: { tool: "write", input: { path: "src/a.ts", content: "x" }, cwd: CWD },
	};

	it("is for a human alone: a link that would allow it is not asked, and the dialog says why", async () => {
		const policy = policyFromConfig({ authorizerChain: ["judge"] });
		const { pipeline, presenter, linkCalls } = world(policy, {
			script: [allowOnce],
			links: { judge: async () => ({ verdict: "allow" }) },
			uncontainedFileTool: uncontained,
		});
		const { outcome } = await pipeline.run(writeCall);
		expect(outcome).toMatchObject({ outcome: "allow", source: { kind: "user", via: "dialog" } });
		expect(outcome.why).toContain(uncontained);
		expect(presenter.shown).toHaveLength(1);
		expect(linkCalls).toEqual([]);
	});

	it("accept-edits does not allow it unasked, and no grant is offered", async () => {
		const { pipeline, presenter } = world(policyFromConfig({}), {
			script: [allowOnce],
			uncontainedFileTool: uncontained,
			permissionMode: "accept-edits",
		});
		const { outcome } = await pipeline.run(writeCall);
		expect(outcome).toMatchObject({ outcome: "allow", source: { kind: "user", via: "dialog" } });
		expect(outcome.why).toContain(uncontained);
		expect(presenter.shown).toHaveLength(1);
		// Only "allow once" and the denials: a session grant would only make the next such call ask again.
		expect(presenter.shown[0]?.prompt.choices.map((c) => c.answer.kind)).toEqual(["allow", "deny", "deny"]);
	});

	it("leaves a read alone, and the gate's own write tool runs unasked in accept-edits", async () => {
		const read = world(policyFromConfig({}), { uncontainedFileTool: uncontained });
		const readCall: GateRequest = {
			kind: "tool_call",
			call: { tool: "read", input: { path: "a.ts" }, cwd: CWD },
		};
		expect((await read.pipeline.run(readCall)).outcome.outcome).toBe("allow");
		const ours = world(policyFromConfig({}), { permissionMode: "accept-edits" });
		expect((await ours.pipeline.run(writeCall)).outcome).toMatchObject({
			outcome: "allow",
			source: { kind: "mode", mode: "accept-edits" },
		});
		expect(ours.presenter.shown).toEqual([]);
	});
});

/** A whole-tree grant of `npm *`, wide enough to cover any npm command a child asks about. */
const TREE_GRANT = {
	id: "tree-npm",
	surface: "command",
	pattern: "npm *",
	scope: "tree",
	limit: { tier: "privileged", outsideCwd: true },
	grantedAt: new Date().toISOString(),
} as const;

describe("the pipeline: this session's ask rules hold for a child's forwarded ask", () => {
	it("a whole-tree grant does not answer what an ask rule here asks, and no grant is offered for it", async () => {
		const policy = policyFromConfig({
			rules: [{ surface: "command", pattern: "npm install *", action: "ask" }],
		});
		const { pipeline, presenter, grants } = world(policy, { script: [denyOnce] });
		// A whole-tree grant given earlier for some other ask, wide enough to cover this one.
		grants.add([TREE_GRANT]);
		const { outcome } = await pipeline.run(forwarded(childRequest("npm install left-pad")));
		expect(outcome).toMatchObject({ outcome: "deny", mode: "ask", source: { kind: "user", via: "dialog" } });
		expect(presenter.shown).toHaveLength(1);
		expect(presenter.shown[0]?.prompt.choices.map((c) => c.answer)).not.toContainEqual({
			kind: "allow",
			scope: "tree",
		});
		// Without the ask rule the same grant answers it.
		const plain = world(policyFromConfig({}));
		plain.grants.add(grants.list());
		const granted = await plain.pipeline.run(forwarded(childRequest("npm install left-pad")));
		expect(granted.outcome).toMatchObject({ outcome: "allow" });
		expect(granted.outcome.source.kind).toBe("session_grant");
	});
});

describe("the pipeline: a child's ask its own policy made human-only", () => {
	const humanOnly = (command: string) => forwarded(childRequest(command, { humanOnly: true }));

	it("no link answers it: this session's human is asked, told why, and offered no grant", async () => {
		const policy = policyFromConfig({ authorizerChain: ["yes"] });
		const { pipeline, presenter, linkCalls } = world(policy, {
			links: { yes: async () => ({ verdict: "allow" }) },
			script: [allowOnce],
		});
		const { outcome } = await pipeline.run(humanOnly("npm install left-pad"));
		expect(linkCalls).toEqual([]);
		expect(outcome).toMatchObject({ outcome: "allow", source: { kind: "user" } });
		expect(outcome.why).toContain("only a human may answer (the asking agent's own policy says so)");
		expect(presenter.shown).toHaveLength(1);
		expect(presenter.shown[0]?.prompt.choices.map((c) => c.answer.kind)).toEqual(["allow", "deny", "deny"]);
		// Without the child's verdict the same link answers the same ask.
		const plain = world(policy, { links: { yes: async () => ({ verdict: "allow" }) } });
		const linked = await plain.pipeline.run(forwarded(childRequest("npm install left-pad")));
		expect(linked.outcome).toMatchObject({ outcome: "allow", source: { kind: "authorizer" } });
	});

	it("no whole-tree grant answers it, neither before the dialog nor while it waits", async () => {
		const { pipeline, presenter, grants } = world(policyFromConfig({}), { script: [denyOnce] });
		grants.add([TREE_GRANT]);
		const { outcome } = await pipeline.run(humanOnly("npm install left-pad"));
		expect(outcome).toMatchObject({
			outcome: "deny",
			mode: "ask",
			source: { kind: "user" },
		});
		expect(presenter.shown).toHaveLength(1);
	});

	it("no permission mode answers it", async () => {
		const { pipeline, presenter } = world(policyFromConfig({}), {
			permissionMode: "trusted",
			script: [denyOnce],
		});
		const { outcome } = await pipeline.run(humanOnly("npm install left-pad"));
		expect(outcome).toMatchObject({ outcome: "deny", source: { kind: "user" } });
		expect(presenter.shown).toHaveLength(1);
	});

	it("a parked approval a link settled does not answer it; one a human settled does", async () => {
		const byLink = world(policyFromConfig({}), { script: [denyOnce] });
		await settleParked(byLink.parked, "npm install left-pad", LINK_ALLOWED);
		const asked = await byLink.pipeline.run(humanOnly("npm install left-pad"));
		expect(asked.outcome).toMatchObject({ outcome: "deny", source: { kind: "user", via: "dialog" } });
		expect(byLink.presenter.shown).toHaveLength(1);
		const byHuman = world(policyFromConfig({}));
		await settleParked(byHuman.parked, "npm install left-pad", CLI_ALLOWED);
		const approved = await byHuman.pipeline.run(humanOnly("npm install left-pad"));
		expect(approved.outcome.source).toMatchObject({ kind: "parked_approval", approvedBy: CLI_ALLOWED });
		expect(byHuman.presenter.shown).toEqual([]);
	});

	it("with nobody to ask it is refused as unavailable, never as a user denial", async () => {
		const { pipeline } = world(policyFromConfig({}), {
			terminal: new NobodyAuthorizer("no UI and no parent", null),
		});
		const { outcome } = await pipeline.run(humanOnly("npm install left-pad"));
		expect(outcome).toMatchObject({ outcome: "deny", source: { kind: "unavailable" } });
	});

	it("humanOnly: false relaxes nothing this session decides: its own guarded path still skips the links", async () => {
		const policy = policyFromConfig({ authorizerChain: ["yes"] });
		const { pipeline, presenter, linkCalls } = world(policy, {
			links: { yes: async () => ({ verdict: "allow" }) },
			script: [denyOnce],
		});
		const { outcome } = await pipeline.run(forwarded(childRequest(HOOK_WRITE, { humanOnly: false })));
		expect(linkCalls).toEqual([]);
		expect(outcome).toMatchObject({ outcome: "deny", source: { kind: "user", via: "dialog" } });
		expect(presenter.shown).toHaveLength(1);
	});

	it("a relay passes it up: the request it forwards is human-only when the asker's or its own policy says so", async () => {
		const relay = { sessionId: "relay-1", path: ["root", "relay"] };
		const origin = { kind: "human" } as const;
		expect(
			relayForwardRequest(childRequest("npm install left-pad", { humanOnly: true }), relay, origin, false)
				.humanOnly,
		).toBe(true);
		expect(relayForwardRequest(childRequest("npm install left-pad"), relay, origin, true).humanOnly).toBe(
			true,
		);
		expect(relayForwardRequest(childRequest("npm install left-pad"), relay, origin, false).humanOnly).toBe(
			false,
		);
		// A child's own guarded write goes up saying so.
		expect(childRequest(HOOK_WRITE).humanOnly).toBe(true);
		expect(childRequest("npm install left-pad").humanOnly).toBe(false);
	});
});

describe("the sandbox an allowed call runs in (adr/0017)", () => {
	it("follows the tier when no human decided: a read reads, a write writes in the project, network-egress reaches out", async () => {
		const policy = policyFromConfig({
			rules: [
				{ surface: "command", pattern: "touch *", action: "allow" },
				{ surface: "command", pattern: "curl *", action: "allow" },
			],
			grantCeiling: { tier: "network-egress", reason: "the test needs a network allow rule" },
		});
		const { pipeline } = world(policy);
		const profile = async (command: string) =>
			sandboxProfileFor((await pipeline.run(bashCall(command))).outcome, policy.sandbox);
		expect(await profile("ls -la")).toBe("read-only");
		expect(await profile("touch notes.txt")).toBe("project-write");
		expect(await profile("curl https://example.com")).toBe("network");
	});

	it("a human who approved this very call decided what it may do: it runs as approved", async () => {
		const { pipeline } = world(policyFromConfig({}), { script: [allowOnce, allowOnce] });
		const { outcome } = await pipeline.run(bashCall("npm install left-pad"));
		expect(outcome.source.kind).toBe("user");
		expect(sandboxProfileFor(outcome, policyFromConfig({}).sandbox)).toBeNull();
		// With `sandbox.human`, the human's approval runs in the profile of its tier too.
		const human = policyFromConfig({ sandbox: { enabled: true, human: true } }).sandbox;
		expect(sandboxProfileFor(outcome, human)).toBe("network");
	});

	it("a parked approval is a human's only when a human gave it: one a link gave runs in its tier's profile", async () => {
		const { pipeline } = world(policyFromConfig({}), { script: [allowOnce] });
		const { outcome } = await pipeline.run(bashCall("npm install left-pad"));
		const settings = policyFromConfig({}).sandbox;
		const approvedBy = (source: DecisionSource) => ({
			...outcome,
			source: {
				kind: "parked_approval",
				requestId: "01ARZ3NDEKTSV4RRFFQ69G5FAV",
				approvedBy: source,
			} as const,
		});
		const cli: DecisionSource = { kind: "user", via: "cli", verdict: "allow", scope: "once" };
		const link: DecisionSource = { kind: "authorizer", link: "ci-bot", verdict: "allow" };
		expect(sandboxProfileFor(approvedBy(cli), settings)).toBeNull();
		expect(
			sandboxProfileFor(
				approvedBy({ kind: "forwarded", responderSessionId: "root", decision: cli }),
				settings,
			),
		).toBeNull();
		expect(sandboxProfileFor(approvedBy(link), settings)).toBe("network");
	});

	it("sandbox.exclude exempts a call only when every command in it matches", async () => {
		const policy = policyFromConfig({
			rules: [
				{ surface: "command", pattern: "git commit *", action: "allow" },
				{ surface: "command", pattern: "touch *", action: "allow" },
			],
			sandbox: { exclude: ["git commit *"] },
		});
		// The disguised ones ask; the human's answer does not matter to the check, which reads the parts.
		const { pipeline } = world(policy, { script: [allowOnce, allowOnce, allowOnce, allowOnce] });
		const excluded = async (command: string) => {
			const { outcome } = await pipeline.run(bashCall(command));
			// Decided on its classified parts: never an empty answer from a call that could not be classified.
			expect(outcome.action?.parts.length).toBeGreaterThan(0);
			return excludedFromSandbox(outcome, policy.sandbox);
		};
		expect(await excluded("git commit -m 'a change'")).toBe(true);
		expect(await excluded("git commit -m x && touch notes.txt")).toBe(false);
		// A hostile model's disguises: a command hidden in a substitution or behind another shell is not excluded.
		expect(await excluded('git commit -m "$(touch notes.txt)"')).toBe(false);
		expect(await excluded("sh -c 'git commit -m x; touch notes.txt'")).toBe(false);
		expect(await excluded("git -c core.hooksPath=hooks commit -m x")).toBe(false);
		expect(await excluded("touch notes.txt")).toBe(false);
	});

	it("sandbox.required: a call that would run unsandboxed without a human asks one, and no link may answer", async () => {
		const policy = policyFromConfig({
			rules: [{ surface: "command", pattern: "touch *", action: "allow" }],
			authorizerChain: ["yes-man"],
			sandbox: { required: true },
		});
		const missing =
			"the sandbox is required, but no sandbox can run here: bubblewrap (bwrap) is not installed";
		const { pipeline, presenter, linkCalls } = world(policy, {
			script: [allowOnce, allowOnce, { kind: "answer", answer: { kind: "deny", withReason: false } }],
			sandboxMissing: missing,
			links: { "yes-man": () => ({ verdict: "allow" }) },
		});
		for (const command of ["ls -la", "touch notes.txt", "npm install left-pad"]) {
			const { outcome } = await pipeline.run(bashCall(command));
			if (command === "npm install left-pad") {
				expect(outcome).toMatchObject({ outcome: "deny", source: { kind: "user", via: "dialog" } });
				continue;
			}
			expect(outcome).toMatchObject({
				outcome: "allow",
				mode: "ask",
				source: { kind: "user", via: "dialog" },
			});
			expect(outcome.why).toBe(missing);
		}
		expect(presenter.shown).toHaveLength(3);
		expect(linkCalls).toEqual([]);
		// Other tools are not run by bash: the sandbox does not concern them.
		const read = await pipeline.run({
			kind: "tool_call",
			call: { tool: "read", input: { path: "notes.txt" }, cwd: CWD },
		});
		expect(read.outcome).toMatchObject({ outcome: "allow", mode: "auto" });
	});
});
