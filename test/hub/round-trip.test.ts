import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, symlinkSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forwardAsk } from "../../src/hub/hub-client.ts";
import type { HubLog } from "../../src/hub/hub-log.ts";
import {
	type ForwardRequest,
	type ForwardResponse,
	MAX_RESPONSE_BYTES,
	PROTOCOL,
	requestFile,
	responseFile,
} from "../../src/hub/protocol.ts";
import type { ForwardOptions, ServerAnswer } from "../../src/hub/transport.ts";
import type { DecisionSource } from "../../src/provenance/decision-source.ts";
import {
	childAskHeld,
	type Decide,
	heldDecide,
	makeRequest,
	onCleanup,
	readLog,
	spawnChild,
	startServer,
	tempAgentDir,
	waitUntil,
} from "./hub-fixture.ts";

const GRANT = {
	surface: "command",
	pattern: "npm test",
	limit: { tier: "write", outsideCwd: false },
} as const;

/** A real decide callback: the answer depends on the tool, as a parent's policy would. */
const byTool: Decide = async ({ request }) => {
	switch (request.tool) {
		case "allow-tool":
			return {
				decision: "allow",
				scope: "subagent",
				grants: [GRANT],
				source: { kind: "user", via: "dialog", verdict: "allow", scope: "subagent" },
			};
		case "deny-tool":
			return {
				decision: "deny",
				scope: "once",
				grants: [],
				reason: "not today",
				source: { kind: "user", via: "dialog", verdict: "deny", scope: "once", reason: "not today" },
			};
		case "park-tool":
			return {
				decision: "parked",
				scope: "once",
				grants: [],
				source: { kind: "unavailable", reason: "parked" },
			};
		default:
			throw new Error(`no answer for ${request.tool}`);
	}
};

function options(log: HubLog, extra: Partial<ForwardOptions> = {}): ForwardOptions {
	return { timeoutMs: 20_000, log, ...extra };
}

/** Put a file into place in one step (as any writer that is not racing itself would). */
function plant(file: string, content: string | Buffer): void {
	writeFileSync(`${file}.plant`, content);
	renameSync(`${file}.plant`, file);
}

function responseFor(request: ForwardRequest, overrides: Partial<ForwardResponse> = {}): ForwardResponse {
	return {
		protocol: PROTOCOL,
		requestId: request.id,
		actionHash: request.actionHash,
		decision: "allow",
		scope: "once",
		grants: [],
		source: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
		responderSessionId: "attacker",
		respondedAt: new Date().toISOString(),
		...overrides,
	};
}

function deepSource(depth: number): unknown {
	let source: unknown = { kind: "user", via: "dialog", verdict: "allow", scope: "once" };
	for (let i = 0; i < depth; i++)
		source = { kind: "forwarded", responderSessionId: `hop${i}`, decision: source };
	return source;
}

describe("hub round trip in one process", () => {
	it("allow, deny and parked answers arrive with id and hash echoed and the parent's DecisionSource", async () => {
		const agentDir = tempAgentDir();
		const { layout, target, calls, log } = await startServer(agentDir, byTool);
		for (const tool of ["allow-tool", "deny-tool", "park-tool"]) {
			const request = makeRequest({ tool });
			const expected = await byTool({ request, signal: new AbortController().signal });
			const outcome = await forwardAsk(target, request, options(log));
			expect(outcome.kind, tool).toBe("answered");
			if (outcome.kind !== "answered") continue;
			expect(outcome.response).toMatchObject({
				requestId: request.id,
				actionHash: request.actionHash,
				decision: expected.decision,
				scope: expected.scope,
				grants: expected.grants,
				responderSessionId: target.sessionId,
			});
			expect(outcome.source).toEqual(expected.source);
			expect(calls.get(request.id)).toBe(1);
		}
		// The child cleaned up its files; the server dropped its claims when the requests went.
		expect(readdirSync(layout.requests)).toEqual([]);
		expect(readdirSync(layout.responses)).toEqual([]);
		await waitUntil("claims released", () => readdirSync(layout.claims).length === 0);
	});

	it("a decide callback that throws answers deny with a gate_error source (fail closed)", async () => {
		const agentDir = tempAgentDir();
		const { target, log } = await startServer(agentDir, byTool);
		const outcome = await forwardAsk(target, makeRequest({ tool: "unknown-tool" }), options(log));
		expect(outcome.kind).toBe("answered");
		if (outcome.kind !== "answered") return;
		expect(outcome.response.decision).toBe("deny");
		expect(outcome.source).toEqual({ kind: "gate_error", reason: "Error: no answer for unknown-tool" });
		await waitUntil("decide_failed logged", () =>
			readLog(log.file).some((l) => l.event === "server.decide_failed"),
		);
	});

	it("a parent that is not serving is unavailable at once, and nothing is written", async () => {
		const agentDir = tempAgentDir();
		const { server, layout, target, log } = await startServer(agentDir);
		await server.close();
		const request = makeRequest();
		const outcome = await forwardAsk(target, request, options(log));
		expect(outcome).toMatchObject({ kind: "unavailable" });
		expect(outcome.kind === "unavailable" && outcome.reason).toMatch(/not serving its inbox/);
		expect(existsSync(requestFile(layout, request.id))).toBe(false);
	});

	it("a cancel before the request is even on disk leaves no request behind", async () => {
		const agentDir = tempAgentDir();
		const held = heldDecide();
		const { layout, target, log } = await startServer(agentDir, held.decide);
		const controller = new AbortController();
		const request = makeRequest();
		let landed = false;
		const requests = watch(layout.requests, (_event, name) => {
			if (name === `${request.id}.json`) landed = true;
		});
		onCleanup(() => requests.close());
		const pending = forwardAsk(target, request, options(log, { signal: controller.signal }));
		controller.abort();
		expect(await pending).toMatchObject({ kind: "unavailable" });
		// The atomic write was already under way: it lands, and the child takes the request back out at once.
		await waitUntil(
			"the request to land and be taken back out",
			() => landed && !existsSync(requestFile(layout, request.id)),
		);
		expect(existsSync(requestFile(layout, request.id))).toBe(false);
		// If the server saw it in that instant, its decision was withdrawn, and no answer was written.
		const seen = held.pending.get(request.id);
		if (seen) await waitUntil("withdrawn", () => seen.signal.aborted);
		expect(readdirSync(layout.responses)).toEqual([]);
	});

	it("a request the parent refuses (a 9 KiB command) ends as unavailable within 2 s, not at the deadline", async () => {
		const agentDir = tempAgentDir();
		const { target, log, calls } = await startServer(agentDir);
		const command = `cat > big.txt <<'EOF'\n${"line\n".repeat(1900)}EOF`;
		const request = makeRequest({ asking: [{ tier: "write", why: "writes a file", command }] });
		const started = performance.now();
		const outcome = await forwardAsk(target, request, options(log, { timeoutMs: 60_000 }));
		const ms = performance.now() - started;
		console.log(`refused request noticed by the child after ${ms.toFixed(0)} ms`);
		expect(outcome.kind === "unavailable" && outcome.reason).toMatch(/removed the request without answering/);
		expect(ms).toBeLessThan(2000);
		expect(calls.size).toBe(0);
		await waitUntil("rejection logged", () =>
			readLog(log.file).some((l) => l.event === "server.request_rejected" && l.requestId === request.id),
		);
	});
});

describe("hub round trip: a response the child must never obey", () => {
	const hostile: [
		string,
		(request: ForwardRequest, dir: string) => string | Buffer | { symlinkTo: string },
	][] = [
		[
			"a response about another action (wrong hash)",
			(r) => JSON.stringify(responseFor(r, { actionHash: "f".repeat(64) })),
		],
		[
			"a response naming another request id",
			(r) => JSON.stringify(responseFor(r, { requestId: makeRequest().id })),
		],
		["malformed JSON", () => "{ this is not json"],
		["a truncated response", (r) => JSON.stringify(responseFor(r)).slice(0, 60)],
		["an empty file", () => ""],
		[
			"a response over the size cap",
			(r) => JSON.stringify(responseFor(r, { reason: "r".repeat(MAX_RESPONSE_BYTES) })),
		],
		[
			"a response of another protocol version",
			(r) => JSON.stringify({ ...responseFor(r), protocol: "pi-permission-hub/9" }),
		],
		[
			"a symlink to a well-formed allow elsewhere",
			(r, dir) => {
				const elsewhere = join(dir, "forged.json");
				writeFileSync(elsewhere, JSON.stringify(responseFor(r)));
				return { symlinkTo: elsewhere };
			},
		],
		[
			"an allow with 1000 nested forwarded frames",
			(r) => JSON.stringify(responseFor(r, { source: deepSource(1000) })),
		],
		["an allow with no DecisionSource", (r) => JSON.stringify({ ...responseFor(r), source: undefined })],
		[
			"an allow whose DecisionSource has one bad frame deep inside",
			(r) =>
				JSON.stringify(
					responseFor(r, {
						source: {
							kind: "forwarded",
							responderSessionId: "a",
							decision: { kind: "user", via: "telepathy" },
						},
					}),
				),
		],
	];

	for (const [what, make] of hostile) {
		it(`${what}: unavailable, logged, the request withdrawn at the server`, async () => {
			const agentDir = tempAgentDir();
			const held = heldDecide();
			const { layout, target, log } = await startServer(agentDir, held.decide);
			const request = makeRequest();
			const pending = forwardAsk(target, request, options(log));
			await waitUntil("the server is deciding", () => held.pending.has(request.id));
			const content = make(request, agentDir);
			const file = responseFile(layout, request.id);
			if (typeof content === "object" && "symlinkTo" in content) symlinkSync(content.symlinkTo, file);
			else plant(file, content);
			const outcome = await pending;
			expect(outcome.kind).toBe("unavailable");
			expect(outcome.kind === "unavailable" && outcome.reason).toMatch(/answer was refused/);
			await waitUntil("the refusal logged", () =>
				readLog(log.file).some((l) => l.event === "client.response_rejected" && l.requestId === request.id),
			);
			// The child's giving up withdrew the dialog at the parent, and nothing of the ask is left.
			await waitUntil("signal aborted", () => held.pending.get(request.id)?.signal.aborted === true);
			held.pending.get(request.id)?.answer({
				decision: "allow",
				scope: "once",
				grants: [],
				source: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
			});
			await waitUntil("withdrawn logged", () =>
				readLog(log.file).some((l) => l.event === "server.withdrawn" && l.requestId === request.id),
			);
			expect(existsSync(requestFile(layout, request.id))).toBe(false);
		});
	}

	it("a FIFO in place of the response does not block the child", async () => {
		const agentDir = tempAgentDir();
		const held = heldDecide();
		const { layout, target, log } = await startServer(agentDir, held.decide);
		const request = makeRequest();
		const pending = forwardAsk(target, request, options(log));
		await waitUntil("the server is deciding", () => held.pending.has(request.id));
		execFileSync("mkfifo", [responseFile(layout, request.id)]);
		const outcome = await pending;
		expect(outcome.kind === "unavailable" && outcome.reason).toMatch(/not a regular file/);
	});
});

describe("hub round trip across processes", () => {
	it("children in other processes get allow, deny and parked answers, id and hash echoed", async () => {
		const agentDir = tempAgentDir();
		const { layout, calls, log } = await startServer(agentDir, byTool);
		const children = Array.from({ length: 3 }, () =>
			spawnChild({
				mode: "ask",
				inbox: layout.root,
				sessionId: "0192f3a4-5b6c-7d8e-9f00-aabbccddeeff",
				pid: process.pid,
				count: 6,
				concurrency: 3,
				tools: ["allow-tool", "deny-tool", "park-tool"],
				logFile: log.file,
			}),
		);
		await Promise.all(children.map((c) => c.next((l) => l.event === "done")));
		for (const child of children) {
			const asked = child.lines.filter((l) => l.event === "asked");
			const outcomes = child.lines.filter((l) => l.event === "outcome");
			expect(outcomes).toHaveLength(6);
			for (const ask of asked) {
				const outcome = outcomes.find((o) => o.id === ask.id);
				const expected: ServerAnswer = await byTool({
					request: makeRequest({ tool: String(ask.tool) }),
					signal: new AbortController().signal,
				});
				expect(outcome).toMatchObject({
					kind: "answered",
					requestId: ask.id,
					actionHash: ask.hash,
					decision: expected.decision,
					source: expected.source as DecisionSource,
				});
				expect(calls.get(String(ask.id))).toBe(1);
			}
		}
		expect(calls.size).toBe(18);
		await waitUntil("inbox empty", () =>
			[layout.requests, layout.responses, layout.claims].every((d) => readdirSync(d).length === 0),
		);
	});

	it("a child in another process refuses a forged answer too", async () => {
		const {
			server: { layout, log },
			held,
			child,
			asked,
			id,
		} = await childAskHeld();
		const request = makeRequest({ id, actionHash: String(asked.hash) });
		plant(responseFile(layout, id), JSON.stringify(responseFor(request, { actionHash: "0".repeat(64) })));
		const outcome = await child.next((l) => l.event === "outcome");
		expect(outcome).toMatchObject({ kind: "unavailable" });
		expect(String(outcome.reason)).toMatch(/another request or another action/);
		await waitUntil("signal aborted", () => held.pending.get(id)?.signal.aborted === true);
		await waitUntil("the child's refusal logged", () =>
			readLog(log.file).some((l) => l.event === "client.response_rejected" && l.pid === child.process.pid),
		);
	});
});
