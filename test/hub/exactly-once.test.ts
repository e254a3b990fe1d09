import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forwardAsk } from "../../src/hub/hub-client.ts";
import type { ServedAsk, ServerAnswer } from "../../src/hub/transport.ts";
import {
	makeRequest,
	PARENT_SESSION,
	readLog,
	spawnChild,
	startServer,
	tempAgentDir,
	waitUntil,
} from "./hub-fixture.ts";

/** Answers allow and names the request it decided, so a response crossed over to another child would show. */
async function allowNamingRequest({ request }: ServedAsk): Promise<ServerAnswer> {
	await new Promise((resolve) => setImmediate(resolve));
	return {
		decision: "allow",
		scope: "once",
		grants: [],
		source: { kind: "authorizer", link: "hub-test", verdict: "allow", reason: request.id },
	};
}

const TROUBLE = new Set([
	"server.already_answered",
	"server.respond_failed",
	"server.handle_failed",
	"server.request_rejected",
	"client.response_rejected",
	"client.request_dropped",
	"client.parent_gone",
]);

describe("exactly once", () => {
	it("two server instances on one inbox (a double install): each ask is decided once and answered once", async () => {
		const agentDir = tempAgentDir();
		const first = await startServer(agentDir, allowNamingRequest);
		const second = await startServer(agentDir, allowNamingRequest);
		const requests = Array.from({ length: 200 }, () => makeRequest());
		const outcomes = await Promise.all(
			requests.map((request) => forwardAsk(first.target, request, { timeoutMs: 20_000, log: first.log })),
		);
		for (const [i, outcome] of outcomes.entries()) {
			const request = requests[i];
			if (!request) throw new Error("unreachable");
			expect(outcome.kind).toBe("answered");
			if (outcome.kind === "answered") {
				expect(outcome.source).toMatchObject({ reason: request.id });
				expect(outcome.response.actionHash).toBe(request.actionHash);
			}
			expect((first.calls.get(request.id) ?? 0) + (second.calls.get(request.id) ?? 0)).toBe(1);
		}
		console.log(`double install: first decided ${first.calls.size}, second ${second.calls.size} of 200`);
		expect(first.calls.size + second.calls.size).toBe(200);
		await waitUntil("inbox empty", () =>
			[first.layout.requests, first.layout.responses, first.layout.claims].every(
				(d) => readdirSync(d).length === 0,
			),
		);
		expect(readLog(first.log.file).filter((l) => TROUBLE.has(l.event))).toEqual([]);
	});

	it("three servers in three processes on one inbox: each ask decided by exactly one of them", async () => {
		const agentDir = tempAgentDir();
		const local = await startServer(agentDir, allowNamingRequest);
		const others = [0, 1].map(() =>
			spawnChild({
				mode: "serve",
				agentDir,
				sessionId: PARENT_SESSION,
				logFile: local.log.file,
				decide: "allow",
			}),
		);
		await Promise.all(others.map((o) => o.next((l) => l.event === "serving")));
		// The last server to open wrote server.json; the asks only need one that is alive.
		const requests = Array.from({ length: 300 }, () => makeRequest());
		const outcomes = await Promise.all(
			requests.map((request) =>
				forwardAsk({ ...local.target, pid: null }, request, {
					timeoutMs: 20_000,
					log: local.log,
				}),
			),
		);
		expect(outcomes.every((o) => o.kind === "answered")).toBe(true);
		const reported = () =>
			local.calls.size + others.reduce((n, o) => n + o.lines.filter((l) => l.event === "deciding").length, 0);
		// The other servers' stdout lines may trail the answers they wrote.
		await waitUntil("every decision reported", () => reported() >= 300, 2000).catch(() => undefined);
		const decided = new Map<string, number>();
		for (const id of local.calls.keys()) decided.set(id, 1);
		for (const other of others) {
			for (const line of other.lines.filter((l) => l.event === "deciding")) {
				const id = String(line.id);
				decided.set(id, (decided.get(id) ?? 0) + 1);
			}
		}
		const counts = [
			local.calls.size,
			...others.map((o) => o.lines.filter((l) => l.event === "deciding").length),
		];
		console.log(`three servers, one inbox: decisions per server ${counts.join(" / ")} of 300`);
		expect(decided.size).toBe(300);
		expect([...decided.values()].every((n) => n === 1)).toBe(true);
		expect(counts.reduce((a, b) => a + b, 0)).toBe(300);
		expect(readLog(local.log.file).filter((l) => TROUBLE.has(l.event))).toEqual([]);
	});

	// Its throughput and round-trip times are bench figure 6 (npm run bench -- 6).
	it("32 child processes × 50 asks against one server: none lost, none duplicated, none answered twice", async () => {
		const agentDir = tempAgentDir();
		const { layout, log, calls } = await startServer(agentDir, allowNamingRequest);
		const go = join(agentDir, "go");
		const children = Array.from({ length: 32 }, () =>
			spawnChild({
				mode: "ask",
				inbox: layout.root,
				sessionId: PARENT_SESSION,
				pid: process.pid,
				count: 50,
				concurrency: 10,
				logFile: log.file,
				go,
			}),
		);
		// Start every child's asks at once, after all 32 are loaded (starting node is most of the cost here).
		await Promise.all(children.map((c) => c.next((l) => l.event === "ready", 40_000)));
		writeFileSync(go, "");
		await Promise.all(children.map((c) => c.next((l) => l.event === "done", 40_000)));
		const asked = children.flatMap((c) => c.lines.filter((l) => l.event === "asked"));
		const outcomes = children.flatMap((c) => c.lines.filter((l) => l.event === "outcome"));
		expect(asked).toHaveLength(1600);
		expect(new Set(asked.map((a) => a.id)).size).toBe(1600);
		expect(outcomes).toHaveLength(1600);
		const byId = new Map(outcomes.map((o) => [String(o.id), o]));
		for (const ask of asked) {
			const outcome = byId.get(String(ask.id));
			expect(outcome).toMatchObject({
				kind: "answered",
				decision: "allow",
				requestId: ask.id,
				actionHash: ask.hash,
				source: { reason: ask.id },
			});
		}
		// Server side: every ask decided exactly once, nothing decided that nobody asked.
		expect(calls.size).toBe(1600);
		expect([...calls.values()].every((n) => n === 1)).toBe(true);
		expect([...calls.keys()].every((id) => byId.has(id))).toBe(true);
		await waitUntil("inbox empty", () =>
			[layout.requests, layout.responses, layout.claims].every((d) => readdirSync(d).length === 0),
		);
		expect(readLog(log.file).filter((l) => TROUBLE.has(l.event))).toEqual([]);
	});
});
