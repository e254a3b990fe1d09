/**
 * The processes of the hub figures (5, 6, 7), one role per process: `node bench/hub-process.ts <json job>`.
 * Every stdout line is one JSON record. Roles:
 *   serve      a parent: a real HubServer on an inbox whose decide callback allows at once (as a whole-tree grant
 *              or a link would). Counts decisions per request id and the server's "already answered" reports;
 *              prints them when its stdin closes, then exits.
 *   ask        a child: after a `go` line on stdin, `count` sequential forwardAsk calls; prints every outcome.
 *   poll-serve the anchor's transport, parent side: every 250 ms list the requests directory and answer each
 *              unanswered request with an atomically written response file.
 *   poll-ask   the anchor's transport, child side: write the request atomically, then check for the response
 *              every 250 ms.
 *   idle       a root with an open inbox and no children: between a `go` and a `stop` line on stdin, counts the
 *              async callbacks that run (timers separately) and the CPU time used. With `open: false` the same
 *              process without the inbox: the baseline of a Node process that loaded the same modules.
 */
import { createHook } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { forwardAsk } from "../src/hub/hub-client.ts";
import { HubLog } from "../src/hub/hub-log.ts";
import { HubServer } from "../src/hub/hub-server.ts";
import type { ForwardRequest } from "../src/hub/protocol.ts";
import { inboxLayout } from "../src/hub/protocol.ts";
import type { ParentTarget } from "../src/hub/resolve-parent.ts";
import type { ForwardOutcome, ServerAnswer } from "../src/hub/transport.ts";
import { makeRequest } from "../test/hub/sample-request.ts";

const job: unknown = JSON.parse(process.argv[2] ?? "{}");

function field(key: string): unknown {
	return typeof job === "object" && job !== null ? Reflect.get(job, key) : undefined;
}

function text(key: string): string {
	const value = field(key);
	if (typeof value !== "string") throw new Error(`job.${key} must be a string`);
	return value;
}

function count(key: string, fallback: number): number {
	const value = field(key);
	return typeof value === "number" ? value : fallback;
}

function say(record: Record<string, unknown>): void {
	process.stdout.write(`${JSON.stringify(record)}\n`);
}

/** Resolves on the first stdin line `go` (the orchestrator's start barrier). */
function waitForGo(): Promise<void> {
	say({ event: "ready" });
	return new Promise((resolve) => {
		const lines = createInterface({ input: process.stdin });
		lines.on("line", (line) => {
			if (line.trim() === "go") {
				lines.close();
				resolve();
			}
		});
	});
}

function stdinClosed(): Promise<void> {
	return new Promise((resolve) => {
		process.stdin.on("end", () => resolve());
		process.stdin.resume();
	});
}

/** A forwarded ask as a child would write it (a destructive bash call its own policy could not settle). */
function askRequest(child: string): ForwardRequest {
	const now = Date.now();
	return makeRequest({
		chain: [{ agent: child, sessionId: `${child}-session` }],
		path: ["root", child],
		expiresAt: new Date(now + 120_000).toISOString(),
	});
}

const ALLOW: ServerAnswer = {
	decision: "allow",
	scope: "tree",
	grants: [],
	source: { kind: "authorizer", link: "bench-allow-all", verdict: "allow" },
};

async function serve(): Promise<void> {
	const agentDir = text("agentDir");
	const sessionId = text("sessionId");
	const decided = new Map<string, number>();
	const logEvents = new Map<string, number>();
	const log = new (class CountingHubLog extends HubLog {
		override write(event: string, details: Readonly<Record<string, unknown>>): void {
			logEvents.set(event, (logEvents.get(event) ?? 0) + 1);
			super.write(event, details);
		}
	})(join(agentDir, "hub.log"));
	const server = new HubServer({
		undelivered: () => undefined,
		layout: inboxLayout(agentDir, sessionId),
		base: agentDir,
		sessionId,
		path: ["root"],
		log,
		decide: async ({ request }) => {
			decided.set(request.id, (decided.get(request.id) ?? 0) + 1);
			return ALLOW;
		},
	});
	await server.open();
	say({ event: "serving", pid: process.pid, inbox: server.layout.root });
	await stdinClosed();
	const layout = server.layout;
	const leftovers = [layout.requests, layout.responses, layout.claims].map((dir) => readdirSync(dir).length);
	await server.close();
	say({
		event: "report",
		decided: [...decided.entries()],
		log: Object.fromEntries(logEvents),
		leftoverFiles: leftovers.reduce((a, b) => a + b, 0),
	});
}

function outcomeRecord(
	outcome: ForwardOutcome,
	request: ForwardRequest,
	ms: number,
): Record<string, unknown> {
	if (outcome.kind === "unavailable")
		return { event: "outcome", id: request.id, ms, kind: "unavailable", reason: outcome.reason };
	return {
		event: "outcome",
		id: request.id,
		ms,
		kind: "answered",
		decision: outcome.response.decision,
		echoedId: outcome.response.requestId,
		echoedHash: outcome.response.actionHash === request.actionHash,
	};
}

async function ask(): Promise<void> {
	const name = text("name");
	const target: ParentTarget = {
		sessionId: text("sessionId"),
		inbox: text("inbox"),
		location: "other-process",
		pid: count("parentPid", 0) || null,
		path: ["root"],
		via: "bench",
	};
	const log = new HubLog(text("logFile"));
	const total = count("count", 1);
	await waitForGo();
	for (let i = 0; i < total; i++) {
		const request = askRequest(name);
		const started = performance.now();
		const outcome = await forwardAsk(target, request, { timeoutMs: 60_000, log });
		say(outcomeRecord(outcome, request, performance.now() - started));
	}
	say({ event: "done" });
}

const POLL_MS = 250;

function writeAtomically(file: string, content: string): void {
	const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
	writeFileSync(temp, content, { mode: 0o600 });
	renameSync(temp, file);
}

function removeQuietly(file: string): void {
	try {
		unlinkSync(file);
	} catch {
		// Already gone.
	}
}

async function pollServe(): Promise<void> {
	const dir = text("dir");
	const requests = join(dir, "requests");
	const responses = join(dir, "responses");
	mkdirSync(requests, { recursive: true });
	mkdirSync(responses, { recursive: true });
	let processing = false;
	const timer = setInterval(() => {
		if (processing) return;
		processing = true;
		try {
			for (const name of readdirSync(requests)) {
				if (!name.endsWith(".json")) continue;
				const response = join(responses, name);
				if (existsSync(response)) continue;
				let request: unknown;
				try {
					request = JSON.parse(readFileSync(join(requests, name), "utf8"));
				} catch {
					continue;
				}
				const id = typeof request === "object" && request !== null ? Reflect.get(request, "id") : undefined;
				writeAtomically(response, JSON.stringify({ requestId: id, decision: "allow" }));
			}
		} finally {
			processing = false;
		}
	}, POLL_MS);
	say({ event: "serving" });
	await stdinClosed();
	clearInterval(timer);
}

async function pollAsk(): Promise<void> {
	const dir = text("dir");
	const total = count("count", 1);
	await waitForGo();
	for (let i = 0; i < total; i++) {
		const request = askRequest("poller");
		const requestFile = join(dir, "requests", `${request.id}.json`);
		const responseFile = join(dir, "responses", `${request.id}.json`);
		const started = performance.now();
		writeAtomically(requestFile, JSON.stringify(request));
		while (!existsSync(responseFile)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		const response: unknown = JSON.parse(readFileSync(responseFile, "utf8"));
		removeQuietly(responseFile);
		removeQuietly(requestFile);
		const ms = performance.now() - started;
		const answered =
			typeof response === "object" && response !== null && Reflect.get(response, "requestId") === request.id;
		say({ event: "outcome", id: request.id, ms, kind: answered ? "answered" : "unavailable" });
	}
	say({ event: "done" });
}

/** Timer callbacks (Timeout resources) that run, and all async callbacks that run, while `active`. */
function callbackCounter(): {
	active: boolean;
	timers: number;
	callbacks: number;
	kinds: Map<string, number>;
} {
	const state = { active: false, timers: 0, callbacks: 0, kinds: new Map<string, number>() };
	const types = new Map<number, string>();
	createHook({
		init(asyncId, type) {
			types.set(asyncId, type);
		},
		before(asyncId) {
			if (!state.active) return;
			const type = types.get(asyncId) ?? "unknown";
			state.callbacks++;
			state.kinds.set(type, (state.kinds.get(type) ?? 0) + 1);
			if (type === "Timeout") state.timers++;
		},
		destroy(asyncId) {
			types.delete(asyncId);
		},
	}).enable();
	return state;
}

async function idle(): Promise<void> {
	const agentDir = text("agentDir");
	const counter = callbackCounter();
	const open = field("open") !== false;
	const server = new HubServer({
		undelivered: () => undefined,
		layout: inboxLayout(agentDir, "idle-root"),
		base: agentDir,
		sessionId: "idle-root",
		path: ["root"],
		log: new HubLog(join(agentDir, "hub.log")),
		decide: async () => ALLOW,
	});
	if (open) await server.open();
	const lines = createInterface({ input: process.stdin });
	say({ event: "ready" });
	// The window is opened and closed by stdin lines from the orchestrator, so no timer of ours runs inside it.
	let cpu = process.cpuUsage();
	let started = 0;
	let resourcesAtStart: string[] = [];
	for await (const line of lines) {
		if (line === "go") {
			resourcesAtStart = process.getActiveResourcesInfo();
			counter.active = true;
			cpu = process.cpuUsage();
			started = performance.now();
		} else if (line === "stop") {
			const used = process.cpuUsage(cpu);
			counter.active = false;
			const elapsedMs = performance.now() - started;
			const resourcesAtEnd = process.getActiveResourcesInfo();
			lines.close();
			if (open) await server.close();
			say({
				event: "idle",
				elapsedMs,
				cpuMs: (used.user + used.system) / 1000,
				timerCallbacks: counter.timers,
				callbacks: counter.callbacks,
				callbackKinds: Object.fromEntries(counter.kinds),
				resourcesAtStart,
				resourcesAtEnd,
			});
			return;
		}
	}
}

const roles: Record<string, () => Promise<void>> = {
	serve,
	ask,
	"poll-serve": pollServe,
	"poll-ask": pollAsk,
	idle,
};
const role = roles[text("role")];
if (role === undefined) throw new Error(`unknown role ${String(field("role"))}`);
role().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
		process.exit(1);
	},
);
