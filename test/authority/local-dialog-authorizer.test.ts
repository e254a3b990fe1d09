import { beforeAll, describe, expect, it } from "vitest";
import type { AskEvent, AskEventSink } from "../../src/authority/ask-events.ts";
import type { DialogPresenter, DialogResult } from "../../src/authority/dialog-presenter.ts";
import { DialogQueue } from "../../src/authority/dialog-queue.ts";
import { LocalDialogAuthorizer, type Parker } from "../../src/authority/local-dialog-authorizer.ts";
import type { Ask, TerminalDecision } from "../../src/authority/terminal-authorizer.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { MAX_SOURCE_TEXT, readDecisionSource } from "../../src/provenance/decision-source.ts";
import { bashParser } from "../classify/classify-fixture.ts";
import { askFor, forwardedAskFor } from "./ask-fixture.ts";
import { ScriptedPresenter, waitForDeadline } from "./scripted-presenter.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

function authorizer(
	presenter: DialogPresenter,
	park: Parker | null = null,
	queue = new DialogQueue(),
	announce: AskEventSink = () => undefined,
) {
	return new LocalDialogAuthorizer(presenter, queue, park, announce);
}

/** The source must survive the trip to disk and back (the audit log and inbox read it with the strict reader). */
function expectReadable(decision: TerminalDecision): void {
	expect(readDecisionSource(JSON.parse(JSON.stringify(decision.source)))).toEqual(decision.source);
}

describe("LocalDialogAuthorizer: every DialogResult maps to a decision", () => {
	it("allow once: allowed by the user, no grants", async () => {
		const decision = await authorizer(
			new ScriptedPresenter({ kind: "answer", answer: { kind: "allow", scope: "once" } }),
		).decide(askFor(bash, "git checkout main"));
		expect(decision).toEqual({
			outcome: "allow",
			source: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
			scope: "once",
			grants: [],
		});
		expectReadable(decision);
	});

	it("allow for the session: one grant per suggestion, with the chosen scope", async () => {
		const ask = askFor(bash, "npm install left-pad && git checkout main");
		const decision = await authorizer(
			new ScriptedPresenter({ kind: "answer", answer: { kind: "allow", scope: "session" } }),
		).decide(ask);
		if (decision.outcome !== "allow") throw new Error("expected allow");
		expect(decision.source).toEqual({ kind: "user", via: "dialog", verdict: "allow", scope: "session" });
		expect(decision.grants.map((g) => [g.surface, g.pattern, g.scope])).toEqual([
			["command", "npm install *", "session"],
			["command", "git checkout *", "session"],
		]);
		const ids = new Set(decision.grants.map((g) => g.id));
		expect(ids.size).toBe(2);
		for (const grant of decision.grants) expect(Number.isNaN(Date.parse(grant.grantedAt))).toBe(false);
	});

	it.each(["subagent", "tree"] as const)(
		"records grants with the %s scope when that is chosen",
		async (scope) => {
			const decision = await authorizer(
				new ScriptedPresenter({ kind: "answer", answer: { kind: "allow", scope } }),
			).decide(askFor(bash, "git checkout main"));
			if (decision.outcome !== "allow") throw new Error("expected allow");
			expect(decision.grants.map((g) => g.scope)).toEqual([scope]);
			expect(decision.source).toMatchObject({ kind: "user", scope });
		},
	);

	it("deny: denied by the user, once", async () => {
		const decision = await authorizer(
			new ScriptedPresenter({ kind: "answer", answer: { kind: "deny", withReason: false } }),
		).decide(askFor(bash, "rm -rf build"));
		expect(decision).toEqual({
			outcome: "deny",
			source: { kind: "user", via: "dialog", verdict: "deny", scope: "once" },
		});
	});

	it("deny with a reason: the reason goes to the source and to the model", async () => {
		const decision = await authorizer(
			new ScriptedPresenter({
				kind: "answer",
				answer: { kind: "deny", withReason: true },
				reason: "build is shared",
			}),
		).decide(askFor(bash, "rm -rf build"));
		expect(decision).toEqual({
			outcome: "deny",
			source: { kind: "user", via: "dialog", verdict: "deny", scope: "once", reason: "build is shared" },
			userReason: "build is shared",
		});
	});

	it("a very long typed reason is capped so the recorded source stays readable", async () => {
		const decision = await authorizer(
			new ScriptedPresenter({
				kind: "answer",
				answer: { kind: "deny", withReason: true },
				reason: "because ".repeat(1000),
			}),
		).decide(askFor(bash, "rm -rf build"));
		if (decision.outcome !== "deny") throw new Error("expected deny");
		expect(decision.userReason?.length).toBeLessThanOrEqual(MAX_SOURCE_TEXT);
		expectReadable(decision);
	});

	it("dismissed (Esc): a user deny, saying the dialog was dismissed", async () => {
		const decision = await authorizer(new ScriptedPresenter({ kind: "dismissed" })).decide(
			askFor(bash, "rm -rf build"),
		);
		expect(decision).toEqual({
			outcome: "deny",
			source: { kind: "user", via: "dialog", verdict: "deny", scope: "once", reason: "dismissed the dialog" },
		});
	});

	it("timeout under `wait`: nobody could be asked (unavailable), never a user deny", async () => {
		const presenter = new ScriptedPresenter(waitForDeadline);
		const decision = await authorizer(presenter).decide(askFor(bash, "rm -rf build", { timeoutMs: 30 }));
		expect(decision).toEqual({
			outcome: "deny",
			source: { kind: "unavailable", reason: expect.stringMatching(/^no answer within \d+ s$/) },
		});
		expect(presenter.shown[0]?.options.timeoutMs).toBe(30);
	});

	it("timeout under `defer` with a parker: the ask is parked", async () => {
		const parked: Ask[] = [];
		const park: Parker = async (ask) => {
			parked.push(ask);
			return { outcome: "parked", requestId: "req-42", source: { kind: "unavailable", reason: "parked" } };
		};
		const ask = askFor(bash, "rm -rf build", { unanswered: "defer", timeoutMs: 10 });
		const decision = await authorizer(new ScriptedPresenter({ kind: "timeout" }), park).decide(ask);
		expect(decision).toMatchObject({ outcome: "parked", requestId: "req-42" });
		expect(parked).toEqual([ask]);
	});

	it("timeout under `defer` without a parker: unavailable", async () => {
		const decision = await authorizer(new ScriptedPresenter({ kind: "timeout" })).decide(
			askFor(bash, "rm -rf build", { unanswered: "defer", timeoutMs: 120_000 }),
		);
		expect(decision).toEqual({
			outcome: "deny",
			source: { kind: "unavailable", reason: "no answer within 120 s" },
		});
	});

	it("withdrawn while open: unavailable, saying the call was cancelled", async () => {
		const caller = new AbortController();
		const presenter = new ScriptedPresenter(waitForDeadline);
		const pending = authorizer(presenter).decide(askFor(bash, "rm -rf build", { signal: caller.signal }));
		await new Promise((resolve) => setImmediate(resolve));
		const shownSignal = presenter.shown[0]?.options.signal;
		expect(shownSignal?.aborted).toBe(false);
		caller.abort();
		expect(shownSignal?.aborted).toBe(true);
		expect(await pending).toEqual({
			outcome: "deny",
			source: { kind: "unavailable", reason: "the call was cancelled while the dialog was open" },
		});
	});

	it("unanswered `deny` refuses at once without showing a dialog", async () => {
		const presenter = new ScriptedPresenter();
		const decision = await authorizer(presenter).decide(askFor(bash, "rm -rf build", { unanswered: "deny" }));
		expect(decision.outcome).toBe("deny");
		expect(decision.source.kind).toBe("unavailable");
		expect(presenter.shown).toEqual([]);
	});

	it("a presenter that fails makes decide reject (the gate then fails closed)", async () => {
		const presenter = new ScriptedPresenter(async () => {
			throw new Error("UI gone");
		});
		await expect(authorizer(presenter).decide(askFor(bash, "rm -rf build"))).rejects.toThrow("UI gone");
	});
});

describe("LocalDialogAuthorizer: the shared queue", () => {
	it("shows a local prompt (session scope, not subagent/tree) with its position", async () => {
		const queue = new DialogQueue();
		let release: (r: DialogResult) => void = () => undefined;
		const first = new ScriptedPresenter(() => new Promise((resolve) => (release = resolve)));
		const second = new ScriptedPresenter({ kind: "answer", answer: { kind: "allow", scope: "once" } });
		const a = authorizer(first, null, queue).decide(askFor(bash, "git checkout main"));
		const b = authorizer(second, null, queue).decide(askFor(bash, "npm install x"));
		await new Promise((resolve) => setImmediate(resolve));
		expect(first.shown[0]?.prompt.title).toBe("Permission needed: bash (write) (1 of 2)");
		expect(first.shown[0]?.prompt.choices.map((c) => c.key)).toEqual(["y", "s", "p", "e", "n", "r", "x"]);
		expect(second.shown).toEqual([]);
		release({ kind: "dismissed" });
		expect((await a).outcome).toBe("deny");
		expect((await b).outcome).toBe("allow");
		expect(second.shown[0]?.prompt.title).toBe("Permission needed: bash (network-egress) (2 of 2)");
	});

	it("an ask cancelled while waiting its turn is never shown, and reports withdrawn", async () => {
		const queue = new DialogQueue();
		let release: (r: DialogResult) => void = () => undefined;
		const presenter = new ScriptedPresenter(() => new Promise((resolve) => (release = resolve)));
		const caller = new AbortController();
		const first = authorizer(presenter, null, queue).decide(askFor(bash, "git checkout main"));
		const second = authorizer(presenter, null, queue).decide(
			askFor(bash, "rm -rf build", { signal: caller.signal }),
		);
		await new Promise((resolve) => setImmediate(resolve));
		caller.abort();
		release({ kind: "answer", answer: { kind: "allow", scope: "once" } });
		expect((await first).outcome).toBe("allow");
		expect(await second).toEqual({
			outcome: "deny",
			source: { kind: "unavailable", reason: "the call was cancelled while the dialog was open" },
		});
		expect(presenter.shown).toHaveLength(1);
	});

	it("an answer with grants is handed to keepGrants before the next queued ask is checked", async () => {
		const queue = new DialogQueue();
		const kept: string[] = [];
		let granted = false;
		const first = new ScriptedPresenter({ kind: "answer", answer: { kind: "allow", scope: "tree" } });
		const second = new ScriptedPresenter();
		const a = authorizer(first, null, queue).decide(
			forwardedAskFor(bash, "git checkout main", {
				keepGrants: ({ grants }) => {
					kept.push(...grants.map((g) => `${g.scope} ${g.pattern}`));
					granted = true;
				},
			}),
		);
		const settled: TerminalDecision = {
			outcome: "allow",
			source: {
				kind: "session_grant",
				grantId: "g",
				surface: "command",
				pattern: "git checkout *",
				scope: "tree",
			},
			scope: "once",
			grants: [],
		};
		const b = authorizer(second, null, queue).decide(
			forwardedAskFor(bash, "git checkout dev", { settledElsewhere: () => (granted ? settled : null) }),
		);
		expect((await a).outcome).toBe("allow");
		expect(kept).toEqual(["tree git checkout *"]);
		expect(await b).toEqual(settled);
		expect(second.shown).toEqual([]);
	});

	it("an ask settled elsewhere while its dialog is open withdraws that dialog and frees the queue", async () => {
		const queue = new DialogQueue<{ id: string; recheck?: () => void }>();
		let covered = false;
		const settled: TerminalDecision = {
			outcome: "allow",
			source: {
				kind: "session_grant",
				grantId: "g",
				surface: "command",
				pattern: "rm -rf build",
				scope: "tree",
			},
			scope: "once",
			grants: [],
		};
		const presenter = new ScriptedPresenter(waitForDeadline);
		const next = new ScriptedPresenter({ kind: "answer", answer: { kind: "allow", scope: "once" } });
		const open = authorizer(presenter, null, queue).decide(
			forwardedAskFor(bash, "rm -rf build", { settledElsewhere: () => (covered ? settled : null) }),
		);
		const after = authorizer(next, null, queue).decide(askFor(bash, "git checkout main"));
		await new Promise((resolve) => setImmediate(resolve));
		expect(presenter.shown).toHaveLength(1);
		covered = true;
		queue.recheckWaiting();
		expect(await open).toEqual(settled);
		expect(presenter.shown[0]?.options.signal?.aborted).toBe(true);
		expect((await after).outcome).toBe("allow");
	});
});

describe("LocalDialogAuthorizer: ask events", () => {
	function recorder(): { events: AskEvent[]; sink: AskEventSink } {
		const events: AskEvent[] = [];
		return { events, sink: (event) => events.push(event) };
	}
	const phases = (events: readonly AskEvent[]) =>
		events.map((e) => (e.phase === "opened" ? `opened ${e.preview}` : `closed ${e.preview} ${e.outcome}`));

	it("opened when the dialog is shown, closed with its outcome; both name the ask, who asks and its place", async () => {
		const { events, sink } = recorder();
		const ask = askFor(bash, "rm -rf build");
		const decision = await authorizer(
			new ScriptedPresenter({ kind: "answer", answer: { kind: "allow", scope: "once" } }),
			null,
			new DialogQueue(),
			sink,
		).decide(ask);
		expect(decision.outcome).toBe("allow");
		const [opened, closed] = events;
		expect(opened).toMatchObject({
			version: 1,
			phase: "opened",
			sessionId: "session-under-test",
			kind: "own",
			origin: { kind: "human" },
			tool: "bash",
			tier: "destructive",
			actionHash: ask.action.hash,
			preview: "rm -rf build",
			cwd: ask.action.cwd,
			why: ask.why,
			position: { index: 1, total: 1 },
		});
		if (opened?.phase !== "opened") throw new Error("expected the opened event first");
		expect(Date.parse(opened.deadline) - Date.parse(opened.time)).toBe(ask.timeoutMs);
		expect(opened).not.toHaveProperty("requestId");
		expect(closed).toMatchObject({ phase: "closed", askId: opened.askId, outcome: "allow" });
		expect(events).toHaveLength(2);
	});

	it("a queued ask opens only when its turn comes, with its position; one cancelled while queued never opens", async () => {
		const { events, sink } = recorder();
		const queue = new DialogQueue();
		let release: (r: DialogResult) => void = () => undefined;
		const presenter = new ScriptedPresenter(() => new Promise((resolve) => (release = resolve)), {
			kind: "answer",
			answer: { kind: "deny", withReason: false },
		});
		const caller = new AbortController();
		const first = authorizer(presenter, null, queue, sink).decide(askFor(bash, "git checkout main"));
		const cancelled = authorizer(presenter, null, queue, sink).decide(
			askFor(bash, "rm -rf build", { signal: caller.signal }),
		);
		const third = authorizer(presenter, null, queue, sink).decide(askFor(bash, "npm install x"));
		await new Promise((resolve) => setImmediate(resolve));
		expect(phases(events)).toEqual(["opened git checkout main"]);
		caller.abort();
		release({ kind: "dismissed" });
		await Promise.all([first, cancelled, third]);
		expect(phases(events)).toEqual([
			"opened git checkout main",
			"closed git checkout main dismissed",
			"opened npm install x",
			"closed npm install x deny",
		]);
		expect(events[0]).toMatchObject({ position: { index: 1, total: 3 } });
		expect(events[2]).toMatchObject({ position: { index: 3, total: 3 } });
	});

	it("a forwarded ask names the subagent and its request; a timeout and a failing dialog close it too", async () => {
		const { events, sink } = recorder();
		const ask = forwardedAskFor(bash, "rm -rf build");
		const timedOut = await authorizer(
			new ScriptedPresenter(waitForDeadline),
			null,
			new DialogQueue(),
			sink,
		).decide({ ...ask, timeoutMs: 20 });
		expect(timedOut.source.kind).toBe("unavailable");
		const failing = new ScriptedPresenter(async () => {
			throw new Error("UI gone");
		});
		await expect(authorizer(failing, null, new DialogQueue(), sink).decide(ask)).rejects.toThrow("UI gone");
		expect(events.map((e) => [e.phase, e.phase === "closed" ? e.outcome : e.kind])).toEqual([
			["opened", "forwarded"],
			["closed", "timeout"],
			["opened", "forwarded"],
			["closed", "failed"],
		]);
		expect(events[0]).toMatchObject({ requestId: ask.request.id, origin: ask.origin });
	});

	it("a dialog withdrawn because a grant settled its ask closes as withdrawn", async () => {
		const { events, sink } = recorder();
		let covered = false;
		const settled: TerminalDecision = {
			outcome: "allow",
			source: {
				kind: "session_grant",
				grantId: "g",
				surface: "command",
				pattern: "rm -rf build",
				scope: "tree",
			},
			scope: "once",
			grants: [],
		};
		const queue = new DialogQueue();
		const open = authorizer(new ScriptedPresenter(waitForDeadline), null, queue, sink).decide(
			forwardedAskFor(bash, "rm -rf build", { settledElsewhere: () => (covered ? settled : null) }),
		);
		await new Promise((resolve) => setImmediate(resolve));
		covered = true;
		queue.recheckWaiting();
		expect(await open).toEqual(settled);
		await expect.poll(() => phases(events)).toEqual(["opened rm -rf build", "closed rm -rf build withdrawn"]);
	});
});
