/**
 * A subagent with a UI of its own (adr/0027): the real forwarding authorizer over the real file transport to a
 * real hub server (or to an inbox nobody serves), and the real local dialog authorizer with a scripted human.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { terminalRoute } from "../../src/authority/choose-terminal.ts";
import type { DialogResult } from "../../src/authority/dialog-presenter.ts";
import { DialogQueue } from "../../src/authority/dialog-queue.ts";
import { LocalDialogAuthorizer } from "../../src/authority/local-dialog-authorizer.ts";
import { ParentForwardingAuthorizer } from "../../src/authority/parent-forwarding-authorizer.ts";
import { ParentThenLocalAuthorizer } from "../../src/authority/parent-then-local-authorizer.ts";
import type { Ask, TerminalDecision } from "../../src/authority/terminal-authorizer.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { ParkedStore } from "../../src/hub/parked-store.ts";
import { inboxLayout } from "../../src/hub/protocol.ts";
import type { ParentTarget } from "../../src/hub/resolve-parent.ts";
import { fileTransport } from "../../src/hub/session-hub.ts";
import { readDecisionSource } from "../../src/provenance/decision-source.ts";
import { describeDecisionSource } from "../../src/provenance/describe-decision-source.ts";
import { bashParser } from "../classify/classify-fixture.ts";
import {
	ALLOW_BY_TEST,
	heldDecide,
	PARENT_SESSION,
	startServer,
	tempAgentDir,
	testHubLog,
	waitUntil,
} from "../hub/hub-fixture.ts";
import { askFor } from "./ask-fixture.ts";
import { ScriptedPresenter, waitForDeadline } from "./scripted-presenter.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const ALLOW_ONCE: DialogResult = { kind: "answer", answer: { kind: "allow", scope: "once" } };

/** The subagent's terminal: forwarding to `target`, its own UI played by `presenter`. */
function subagentTerminal(agentDir: string, target: ParentTarget, presenter: ScriptedPresenter) {
	const forwarding = new ParentForwardingAuthorizer({
		target,
		identity: { sessionId: "child-session", path: ["root", "worker"] },
		log: testHubLog(join(agentDir, "child-hub.log")),
		parked: new ParkedStore(join(agentDir, "pi-permission-hub", "parked"), agentDir),
		transport: fileTransport,
	});
	const local = new LocalDialogAuthorizer(presenter, new DialogQueue(), null, () => undefined);
	return new ParentThenLocalAuthorizer({
		unreachable: () => fileTransport.unreachable(target),
		forwarding,
		local,
	});
}

/** A parent named by session id whose inbox nobody serves (a launcher's variable naming a root that ended). */
function unservedTarget(agentDir: string): ParentTarget {
	return {
		sessionId: PARENT_SESSION,
		inbox: inboxLayout(agentDir, PARENT_SESSION).root,
		location: "other-process",
		pid: null,
		path: ["root"],
		via: "PI_SUBAGENT_PARENT_SESSION",
	};
}

function expectReadable(decision: TerminalDecision): void {
	expect(readDecisionSource(JSON.parse(JSON.stringify(decision.source)))).toEqual(decision.source);
}

describe("ParentThenLocalAuthorizer", () => {
	it("a parent nobody serves: the subagent's own human is asked, and the answer says so", async () => {
		const agentDir = tempAgentDir();
		const presenter = new ScriptedPresenter(ALLOW_ONCE);
		const ask = askFor(bash, "rm -f victim.txt");
		const decision = await subagentTerminal(agentDir, unservedTarget(agentDir), presenter).decide(ask);
		expect(decision).toMatchObject({
			outcome: "allow",
			scope: "once",
			source: {
				kind: "user",
				via: "dialog",
				verdict: "allow",
				scope: "once",
				parentUnreachable: `the parent session ${PARENT_SESSION} is not serving its inbox`,
			},
		});
		expectReadable(decision);
		expect(describeDecisionSource(decision.source)).toContain(
			"in this subagent's own UI, its parent could not be asked",
		);
		expect(presenter.shown).toHaveLength(1);
		expect(presenter.shown[0]?.prompt.lines).toContain(
			`Asked here: this subagent's parent cannot be asked (the parent session ${PARENT_SESSION} is not serving its inbox)`,
		);
		expect(presenter.shown[0]?.options.timeoutMs).toBe(ask.timeoutMs);
	});

	it("a dismissed local dialog is that human's denial, still marked as answered in place of the parent", async () => {
		const agentDir = tempAgentDir();
		const decision = await subagentTerminal(
			agentDir,
			unservedTarget(agentDir),
			new ScriptedPresenter({ kind: "dismissed" }),
		).decide(askFor(bash, "rm -f victim.txt"));
		expect(decision).toMatchObject({
			outcome: "deny",
			source: { kind: "user", verdict: "deny", reason: "dismissed the dialog" },
		});
		expect(decision.source.kind === "user" && decision.source.parentUnreachable).toMatch(/not serving/);
	});

	it("nobody at the local dialog either: unavailable within the ask's timeout, never a user's denial", async () => {
		const agentDir = tempAgentDir();
		const started = Date.now();
		const decision = await subagentTerminal(
			agentDir,
			unservedTarget(agentDir),
			new ScriptedPresenter(waitForDeadline),
		).decide(askFor(bash, "rm -f victim.txt", { timeoutMs: 600 }));
		expect(Date.now() - started).toBeLessThan(2_000);
		expect(decision.outcome).toBe("deny");
		expect(decision.source).toEqual({
			kind: "unavailable",
			reason: `its parent could not be asked (the parent session ${PARENT_SESSION} is not serving its inbox), and nobody answered this subagent's own dialog within 1 s`,
		});
	});

	it("a serving parent decides; the subagent's own UI is never shown", async () => {
		const agentDir = tempAgentDir();
		const server = await startServer(agentDir, async () => ALLOW_BY_TEST);
		const presenter = new ScriptedPresenter();
		const decision = await subagentTerminal(agentDir, server.target, presenter).decide(
			askFor(bash, "rm -f victim.txt"),
		);
		expect(decision).toMatchObject({
			outcome: "allow",
			source: { kind: "forwarded", responderSessionId: PARENT_SESSION, decision: ALLOW_BY_TEST.source },
		});
		expect(presenter.shown).toEqual([]);
	});

	it("a parent that answers 'nobody could be asked' is not overruled: no local dialog", async () => {
		const agentDir = tempAgentDir();
		const server = await startServer(agentDir, async () => ({
			decision: "deny",
			scope: "once",
			grants: [],
			source: { kind: "unavailable", reason: "no answer within 300 s" },
		}));
		const presenter = new ScriptedPresenter();
		const decision = await subagentTerminal(agentDir, server.target, presenter).decide(
			askFor(bash, "rm -f victim.txt"),
		);
		expect(decision).toMatchObject({ outcome: "deny", source: { kind: "forwarded" } });
		expect(presenter.shown).toEqual([]);
	});

	it("a parent that stops serving while the ask waits: asked locally, within what is left of the timeout", async () => {
		const agentDir = tempAgentDir();
		const held = heldDecide();
		const server = await startServer(agentDir, held.decide);
		const presenter = new ScriptedPresenter(ALLOW_ONCE);
		const ask = askFor(bash, "rm -f victim.txt", { timeoutMs: 20_000 });
		const pending = subagentTerminal(agentDir, server.target, presenter).decide(ask);
		await waitUntil("the parent is deciding", () => held.pending.size === 1);
		await server.server.close();
		const decision = await pending;
		expect(decision).toMatchObject({ outcome: "allow", source: { kind: "user", verdict: "allow" } });
		expect(decision.source.kind === "user" && decision.source.parentUnreachable).toMatch(/not serving/);
		const shownFor = presenter.shown[0]?.options.timeoutMs;
		expect(shownFor).toBeLessThan(ask.timeoutMs);
		expect(shownFor).toBeGreaterThan(ask.timeoutMs - 5_000);
	});

	it("a call cancelled while its parent decides is not asked again locally", async () => {
		const agentDir = tempAgentDir();
		const held = heldDecide();
		const server = await startServer(agentDir, held.decide);
		const cancel = new AbortController();
		const presenter = new ScriptedPresenter();
		const pending = subagentTerminal(agentDir, server.target, presenter).decide(
			askFor(bash, "rm -f victim.txt", { signal: cancel.signal }),
		);
		await waitUntil("the parent is deciding", () => held.pending.size === 1);
		cancel.abort();
		await server.server.close();
		expect((await pending).source).toMatchObject({ kind: "unavailable" });
		expect(presenter.shown).toEqual([]);
	});

	it("`unanswered: deny` refuses without asking anyone, here too", async () => {
		const agentDir = tempAgentDir();
		const presenter = new ScriptedPresenter();
		const ask: Ask = askFor(bash, "rm -f victim.txt", { unanswered: "deny" });
		const decision = await subagentTerminal(agentDir, unservedTarget(agentDir), presenter).decide(ask);
		expect(decision.source).toMatchObject({ kind: "unavailable" });
		expect(presenter.shown).toEqual([]);
	});
});

describe("terminalRoute", () => {
	it.each([
		["child", true, "parent-then-local", "parent-then-local"],
		["child", true, "parent-only", "parent"],
		["child", false, "parent-then-local", "parent"],
		["orphan", true, "parent-then-local", "local-for-orphan"],
		["orphan", true, "parent-only", "nobody"],
		["orphan", false, "parent-then-local", "nobody"],
		["root", true, "parent-only", "local"],
		["root", false, "parent-then-local", "nobody"],
	] as const)("%s, UI %s, %s → %s", (parent, hasUI, setting, route) => {
		expect(terminalRoute(parent, hasUI, setting)).toBe(route);
	});
});
