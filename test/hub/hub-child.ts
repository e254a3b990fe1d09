/**
 * Run by the hub tests as a separate node process (real pids, real kill -9, real cross-process races).
 * argv[2] is a JSON job; every line on stdout is one JSON record. Jobs:
 *   ask      forward `count` asks to an inbox (`concurrency` at a time), one `outcome` line each; `request`
 *            holds fields that replace the sample request's
 *   serve    serve an inbox with a HubServer (`decide`: "allow" answers at once, "hold" never answers); with
 *            `go`, it opens the inbox only once the `go` file exists; with `alsoWatch`, the process also
 *            watches that directory (one inotify queue per process: events there can overflow the inbox's)
 *   create   wait for the `go` file, then createExclusive(file) once
 *   consume  wait for the `go` file, then find + consume a parked approval by hash
 *   idle     open a HubServer with no requests and report the timers active over `idleMs`
 */
import { existsSync, watch } from "node:fs";
import { basename, dirname, join } from "node:path";
import { HubLog } from "../../src/hub/hub-log.ts";
import { inboxLayout } from "../../src/hub/protocol.ts";
import type { ParentTarget } from "../../src/hub/resolve-parent.ts";
import type { ForwardOutcome } from "../../src/hub/transport.ts";

// Each job imports only what it runs: many of these processes start at once on a small machine.

const job = JSON.parse(process.argv[2] ?? "{}") as Record<string, unknown>;

function say(record: Record<string, unknown>): void {
	process.stdout.write(`${JSON.stringify({ pid: process.pid, ...record })}\n`);
}

function str(key: string): string {
	const value = job[key];
	if (typeof value !== "string") throw new Error(`job.${key} must be a string`);
	return value;
}

function num(key: string, fallback: number): number {
	const value = job[key];
	return typeof value === "number" ? value : fallback;
}

/** A start line for races: every process is loaded and waiting before the test creates the `go` file. */
async function waitForGo(): Promise<void> {
	const go = str("go");
	await new Promise<void>((resolve) => {
		const watcher = watch(dirname(go), (_event, name) => {
			if (name === basename(go) && existsSync(go)) {
				watcher.close();
				resolve();
			}
		});
		say({ event: "ready" });
		if (existsSync(go)) {
			watcher.close();
			resolve();
		}
	});
}

function describe(outcome: ForwardOutcome): Record<string, unknown> {
	if (outcome.kind === "unavailable") return { kind: "unavailable", reason: outcome.reason };
	const { response } = outcome;
	return {
		kind: "answered",
		decision: response.decision,
		requestId: response.requestId,
		actionHash: response.actionHash,
		responder: response.responderSessionId,
		source: outcome.source,
	};
}

async function ask(): Promise<void> {
	const { forwardAsk } = await import("../../src/hub/hub-client.ts");
	const { makeRequest } = await import("./sample-request.ts");
	const log = new HubLog(str("logFile"));
	const pid = job.pid;
	const target: ParentTarget = {
		sessionId: str("sessionId"),
		inbox: str("inbox"),
		location: "other-process",
		pid: typeof pid === "number" ? pid : null,
		path: ["root"],
		via: "test",
	};
	const count = num("count", 1);
	const concurrency = num("concurrency", 1);
	const abortAfterMs = typeof job.abortAfterMs === "number" ? job.abortAfterMs : null;
	const tools = Array.isArray(job.tools) ? job.tools.map(String) : ["bash"];
	if (typeof job.go === "string") await waitForGo();
	let nextIndex = 0;
	const worker = async (): Promise<void> => {
		while (nextIndex < count) {
			const index = nextIndex++;
			// `job.request` replaces fields of every request (a forged tier or hash, a real cwd).
			const overrides = typeof job.request === "object" && job.request !== null ? job.request : {};
			const request = makeRequest({ tool: tools[index % tools.length] ?? "bash", ...overrides });
			const controller = new AbortController();
			if (abortAfterMs !== null) setTimeout(() => controller.abort(), abortAfterMs);
			say({ event: "asked", id: request.id, hash: request.actionHash, tool: request.tool });
			const outcome = await forwardAsk(target, request, {
				timeoutMs: num("timeoutMs", 30_000),
				log,
				signal: controller.signal,
			});
			say({ event: "outcome", id: request.id, hash: request.actionHash, ...describe(outcome) });
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	say({ event: "done" });
}

async function serve(): Promise<void> {
	const { HubServer } = await import("../../src/hub/hub-server.ts");
	const agentDir = str("agentDir");
	const sessionId = str("sessionId");
	const hold = job.decide === "hold";
	const server = new HubServer({
		undelivered: (request, why) => say({ event: "undelivered", id: request.id, why }),
		layout: inboxLayout(agentDir, sessionId),
		base: agentDir,
		sessionId,
		path: ["root"],
		log: new HubLog(str("logFile")),
		decide: ({ request, signal }) => {
			say({ event: "deciding", id: request.id });
			if (!hold) {
				return Promise.resolve({
					decision: "allow",
					scope: "once",
					grants: [],
					source: { kind: "authorizer", link: "child-server", verdict: "allow" },
				});
			}
			return new Promise((resolve) =>
				signal.addEventListener("abort", () => {
					say({ event: "aborted", id: request.id });
					resolve({
						decision: "deny",
						scope: "once",
						grants: [],
						source: { kind: "gate_error", reason: "x" },
					});
				}),
			);
		},
	});
	if (typeof job.go === "string") await waitForGo();
	if (typeof job.alsoWatch === "string") watch(job.alsoWatch, () => undefined);
	await server.open();
	say({ event: "serving" });
	// Stay alive until killed.
	setInterval(() => undefined, 60_000);
}

async function create(): Promise<void> {
	const { createExclusive } = await import("../../src/hub/private-files.ts");
	const file = str("file");
	await waitForGo();
	const result = createExclusive(file, `written by ${process.pid}\n${"x".repeat(num("padding", 0))}`);
	say({ event: "created", created: result.created });
}

async function consume(): Promise<void> {
	const { ParkedStore } = await import("../../src/hub/parked-store.ts");
	const store = new ParkedStore(str("dir"), str("base"));
	const hash = str("hash");
	await waitForGo();
	const approval = store.find(hash);
	say({ event: "consumed", found: approval !== null, consumed: approval ? store.consume(approval) : false });
}

async function idle(): Promise<void> {
	const { HubServer } = await import("../../src/hub/hub-server.ts");
	const agentDir = str("agentDir");
	const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
	const before = process.getActiveResourcesInfo();
	let decided = 0;
	const server = new HubServer({
		undelivered: (request, why) => say({ event: "undelivered", id: request.id, why }),
		layout: inboxLayout(agentDir, "idle-session"),
		base: agentDir,
		sessionId: "idle-session",
		path: ["root"],
		log: new HubLog(join(agentDir, "hub.log")),
		decide: async () => {
			decided++;
			return { decision: "deny", scope: "once", grants: [], source: { kind: "gate_error", reason: "idle" } };
		},
	});
	await server.open();
	// Let chokidar settle (its ready event may leave one-shot work behind).
	await new Promise((resolve) => setImmediate(resolve));
	const after = process.getActiveResourcesInfo();
	const timersAfterOpen = timers();
	const sleeping = new Promise((resolve) => setTimeout(resolve, num("idleMs", 3000)));
	const timersWhileIdle = timers();
	await sleeping;
	const timersAtEnd = timers();
	await server.close();
	say({ event: "idle", before, after, timersAfterOpen, timersWhileIdle, timersAtEnd, decided });
}

const modes: Record<string, () => Promise<void>> = { ask, serve, create, consume, idle };
const mode = modes[String(job.mode)];
if (!mode) throw new Error(`unknown mode ${String(job.mode)}`);
await mode();
