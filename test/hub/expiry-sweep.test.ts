import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forwardAsk } from "../../src/hub/hub-client.ts";
import { newRequestId, requestFile, responseFile } from "../../src/hub/protocol.ts";
import {
	abandonedInbox,
	deadPid,
	heldDecide,
	makeRequest,
	readLog,
	startServer,
	tempAgentDir,
	waitUntil,
} from "./hub-fixture.ts";

const past = (ms: number) => new Date(Date.now() - ms).toISOString();

describe("expiry", () => {
	it("an expired ask whose child still waits gets an unavailable answer and is not decided", async () => {
		const agentDir = tempAgentDir();
		const { target, log, calls } = await startServer(agentDir);
		const request = makeRequest({ createdAt: past(120_000), expiresAt: past(60_000) });
		const outcome = await forwardAsk(target, request, { timeoutMs: 10_000, log });
		expect(outcome.kind).toBe("answered");
		if (outcome.kind !== "answered") return;
		expect(outcome.response.decision).toBe("deny");
		expect(outcome.source).toEqual({
			kind: "unavailable",
			reason: "the request expired before anyone answered",
		});
		expect(calls.size).toBe(0);
		await waitUntil("logged", () =>
			readLog(log.file).some((l) => l.event === "server.expired" && l.requestId === request.id),
		);
	});

	it("expired asks nobody waits for (dead child, parked) are swept without an answer", async () => {
		const agentDir = tempAgentDir();
		const { layout } = await abandonedInbox(agentDir);
		const dead = makeRequest({ requesterPid: deadPid(), expiresAt: past(1000) });
		const parked = makeRequest({ unanswered: "defer", expiresAt: past(1000) });
		for (const r of [dead, parked]) writeFileSync(requestFile(layout, r.id), JSON.stringify(r));
		const { log, calls } = await startServer(agentDir);
		await waitUntil("swept", () => readdirSync(layout.requests).length === 0);
		expect(calls.size).toBe(0);
		expect(readdirSync(layout.responses)).toEqual([]);
		expect(readdirSync(layout.claims)).toEqual([]);
		await waitUntil(
			"logged",
			() => readLog(log.file).filter((l) => l.event === "server.expired").length === 2,
		);
	});
});

describe("reconcile at open", () => {
	it("a request written while no server ran is picked up when one opens", async () => {
		const agentDir = tempAgentDir();
		const { layout } = await abandonedInbox(agentDir);
		const waiting = makeRequest();
		const orphaned = makeRequest({ requesterPid: deadPid() });
		const parked = makeRequest({ unanswered: "defer", requesterPid: deadPid() });
		for (const r of [waiting, orphaned, parked]) writeFileSync(requestFile(layout, r.id), JSON.stringify(r));
		const { calls, log } = await startServer(agentDir);
		await waitUntil("decided", () => calls.get(waiting.id) === 1 && calls.get(parked.id) === 1);
		// The waiting ask is answered; the parked one is decided for the parked store (no response); the one
		// whose asker is gone is dropped undecided.
		await waitUntil("answered", () => existsSync(responseFile(layout, waiting.id)));
		expect(existsSync(responseFile(layout, parked.id))).toBe(false);
		expect(calls.has(orphaned.id)).toBe(false);
		await waitUntil("orphan dropped", () =>
			readLog(log.file).some(
				(l) =>
					l.event === "server.request_rejected" &&
					l.requestId === orphaned.id &&
					l.reason === "the asking process is gone",
			),
		);
		expect(existsSync(requestFile(layout, orphaned.id))).toBe(false);
		expect(existsSync(requestFile(layout, parked.id))).toBe(false);
	});

	it("claims and responses left behind without a request are swept", async () => {
		const agentDir = tempAgentDir();
		const { layout } = await abandonedInbox(agentDir);
		const stale = [newRequestId(), newRequestId()];
		for (const id of stale) {
			writeFileSync(join(layout.claims, id), "424242:1");
			writeFileSync(responseFile(layout, id), "{}");
		}
		writeFileSync(responseFile(layout, newRequestId()), "{}");
		await startServer(agentDir);
		expect(readdirSync(layout.claims)).toEqual([]);
		expect(readdirSync(layout.responses)).toEqual([]);
	});

	it("a request claimed by a server that died mid-decision is taken over and decided once", async () => {
		const agentDir = tempAgentDir();
		const { layout } = await abandonedInbox(agentDir);
		const request = makeRequest({ unanswered: "defer" });
		writeFileSync(requestFile(layout, request.id), JSON.stringify(request));
		// Both claim formats: `pid:start token`, and a bare pid.
		const old = makeRequest();
		writeFileSync(requestFile(layout, old.id), JSON.stringify(old));
		const dead = deadPid();
		writeFileSync(join(layout.claims, request.id), `${dead}:12345`);
		writeFileSync(join(layout.claims, old.id), String(dead));
		const { calls, log } = await startServer(agentDir);
		await waitUntil("decided", () => calls.get(request.id) === 1 && calls.get(old.id) === 1);
		await waitUntil(
			"logged",
			() => readLog(log.file).filter((l) => l.event === "server.stale_claim").length === 2,
		);
	});

	it("a claim held by a live server is respected (no takeover, no second decision)", async () => {
		const agentDir = tempAgentDir();
		const held = heldDecide();
		const first = await startServer(agentDir, held.decide);
		const request = makeRequest();
		const pending = forwardAsk(first.target, request, { timeoutMs: 10_000, log: first.log });
		await waitUntil("deciding", () => held.pending.has(request.id));
		// A second server's one chance at the request is its listing at open (nothing in requests/ changes after):
		// it tries every listed request, then sweeps claims whose request is gone. A planted orphan claim gone
		// proves that pass is over.
		const orphanClaim = join(first.layout.claims, newRequestId());
		writeFileSync(orphanClaim, "424242:1");
		const second = await startServer(agentDir);
		await waitUntil("the second server's open-time sweep", () => !existsSync(orphanClaim));
		expect(second.calls.size).toBe(0);
		held.pending.get(request.id)?.answer({
			decision: "deny",
			scope: "once",
			grants: [],
			source: { kind: "user", via: "dialog", verdict: "deny", scope: "once" },
		});
		expect(await pending).toMatchObject({ kind: "answered", response: { decision: "deny" } });
		expect(second.calls.size).toBe(0);
	});

	it("a parked ask being decided when its server closes stays for the next server, which decides it", async () => {
		const agentDir = tempAgentDir();
		const held = heldDecide();
		const first = await startServer(agentDir, held.decide);
		const request = makeRequest({ unanswered: "defer", requesterPid: deadPid() });
		writeFileSync(requestFile(first.layout, request.id), JSON.stringify(request));
		await waitUntil("deciding", () => held.pending.has(request.id));
		const closing = first.server.close();
		expect(held.pending.get(request.id)?.signal.aborted).toBe(true);
		held.pending.get(request.id)?.answer({
			decision: "parked",
			scope: "once",
			grants: [],
			source: { kind: "unavailable", reason: "dialog closed" },
		});
		await closing;
		await waitUntil("claim released", () => readdirSync(first.layout.claims).length === 0);
		expect(existsSync(requestFile(first.layout, request.id))).toBe(true);
		const second = await startServer(agentDir);
		await waitUntil("decided again", () => second.calls.get(request.id) === 1);
	});
});
