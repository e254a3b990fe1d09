/**
 * Shared by the hub tests: real temp agent dirs, valid requests, a real HubServer with a counting decide
 * callback, the hub log read back, and child node processes running test/hub/hub-child.ts.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach } from "vitest";
import { HubLog } from "../../src/hub/hub-log.ts";
import { HubServer } from "../../src/hub/hub-server.ts";
import { type InboxLayout, inboxLayout, requestFile } from "../../src/hub/protocol.ts";
import type { ParentTarget } from "../../src/hub/resolve-parent.ts";
import type { ServedAsk, ServerAnswer } from "../../src/hub/transport.ts";

import { makeRequest } from "./sample-request.ts";

export { makeRequest } from "./sample-request.ts";

export const CHILD_SCRIPT = join(import.meta.dirname, "hub-child.ts");
export const PARENT_SESSION = "0192f3a4-5b6c-7d8e-9f00-aabbccddeeff";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
	// Last registered first: servers close and children die before their directories go.
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export function onCleanup(cleanup: () => void | Promise<void>): void {
	cleanups.push(cleanup);
}

/** A fresh agent dir, removed after the test. */
/** The pid of a process that has exited (and was reaped). */
export function deadPid(): number {
	const child = spawnSync(process.execPath, ["-e", "0"]);
	if (child.pid === undefined) throw new Error("could not start a process");
	return child.pid;
}

/** An inbox a previous server made and left (it crashed or its session ended), and the hub log it wrote to. */
export async function abandonedInbox(agentDir: string): Promise<Pick<TestServer, "layout" | "log">> {
	const { server, layout, log } = await startServer(agentDir);
	await server.close();
	return { layout, log };
}

export function tempAgentDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "pph-hub-"));
	onCleanup(() => rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 }));
	return dir;
}

/** A hub log for a test (each line is on disk once written). */
export function testHubLog(file: string): HubLog {
	return new HubLog(file);
}

export interface LogLine {
	readonly event: string;
	readonly pid: number;
	readonly [key: string]: unknown;
}

export function readLog(file: string): LogLine[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as LogLine);
}

export async function waitUntil(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
	const start = Date.now();
	while (!condition()) {
		if (Date.now() - start > timeoutMs)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

/** Resolves once the wall clock is past `iso` (an expiry), so whatever checks it against `Date.now()` sees it passed. */
export async function untilPast(iso: string): Promise<void> {
	await waitUntil(`the clock to pass ${iso}`, () => Date.now() > Date.parse(iso), 60_000);
}

export type Decide = (ask: ServedAsk) => Promise<ServerAnswer>;

export const ALLOW_BY_TEST: ServerAnswer = {
	decision: "allow",
	scope: "once",
	grants: [],
	source: { kind: "authorizer", link: "hub-test", verdict: "allow" },
};

export interface TestServer {
	readonly server: HubServer;
	readonly layout: InboxLayout;
	readonly log: HubLog;
	/** How many times decide was called, by request id. */
	readonly calls: Map<string, number>;
	readonly target: ParentTarget;
	/** The answers the server could not hand back, `<request id>: <why>`. */
	readonly undelivered: readonly string[];
}

/** A real HubServer on a fresh inbox under `agentDir`, closed after the test. */
export async function startServer(
	agentDir: string,
	decide: Decide = async () => ALLOW_BY_TEST,
	sessionId = PARENT_SESSION,
): Promise<TestServer> {
	const layout = inboxLayout(agentDir, sessionId);
	const log = testHubLog(join(agentDir, "hub.log"));
	const calls = new Map<string, number>();
	const undelivered: string[] = [];
	const server = new HubServer({
		undelivered: (request, why) => undelivered.push(`${request.id}: ${why}`),
		layout,
		base: agentDir,
		sessionId,
		path: ["root"],
		log,
		decide: (ask) => {
			calls.set(ask.request.id, (calls.get(ask.request.id) ?? 0) + 1);
			return decide(ask);
		},
	});
	await server.open();
	onCleanup(() => server.close());
	const target: ParentTarget = {
		sessionId,
		inbox: layout.root,
		location: "other-process",
		pid: process.pid,
		path: ["root"],
		via: "test",
	};
	return { server, layout, log, calls, target, undelivered };
}

/**
 * Resolves once the server has acted on every file event in its inbox that came before this call. The watcher
 * hands the server its events in the order they happened, so a probe written now comes after all of them: an
 * expired parked ask, which a server sweeps without deciding, answering or rejecting it. Once the probe is gone,
 * whatever the server did about the earlier files is done and on disk.
 */
export async function serverCaughtUp({ layout }: TestServer): Promise<void> {
	const probe = makeRequest({ unanswered: "defer", expiresAt: new Date(Date.now() - 1000).toISOString() });
	const file = requestFile(layout, probe.id);
	// Written aside and renamed in, so the server never reads it half written.
	writeFileSync(`${file}.probe`, JSON.stringify(probe));
	renameSync(`${file}.probe`, file);
	await waitUntil("the server to sweep the probe", () => !existsSync(file));
}

/** A decide callback that answers only when the test says so, and records each call's signal. */
export function heldDecide(): {
	readonly decide: Decide;
	readonly pending: Map<string, { readonly signal: AbortSignal; answer(a: ServerAnswer): void }>;
} {
	const pending = new Map<string, { readonly signal: AbortSignal; answer(a: ServerAnswer): void }>();
	const decide: Decide = (ask) =>
		new Promise((resolve) => pending.set(ask.request.id, { signal: ask.signal, answer: resolve }));
	return { decide, pending };
}

/**
 * A real server whose decide callback holds every ask, and a child process (hub-child.ts `ask` mode, `job` on top)
 * whose one ask that callback is holding now.
 */
export async function childAskHeld(job: Record<string, unknown> = {}): Promise<{
	readonly server: TestServer;
	readonly held: ReturnType<typeof heldDecide>;
	readonly child: Child;
	readonly asked: Record<string, unknown>;
	readonly id: string;
}> {
	const held = heldDecide();
	const server = await startServer(tempAgentDir(), held.decide);
	const child = spawnChild({
		mode: "ask",
		inbox: server.layout.root,
		sessionId: PARENT_SESSION,
		pid: process.pid,
		logFile: server.log.file,
		...job,
	});
	const asked = await child.next((l) => l.event === "asked");
	const id = String(asked.id);
	await waitUntil("the server is deciding", () => held.pending.has(id));
	return { server, held, child, asked, id };
}

export interface Child {
	readonly process: ChildProcess;
	readonly lines: Record<string, unknown>[];
	readonly stderr: () => string;
	/** Resolves with the exit code (null when killed by a signal). */
	readonly exited: Promise<number | null>;
	next(
		predicate: (line: Record<string, unknown>) => boolean,
		timeoutMs?: number,
	): Promise<Record<string, unknown>>;
}

/**
 * Run test/hub/hub-child.ts with a JSON job; every stdout line is a JSON record. Killed after the test. With
 * `inotifyInstances`, it runs in a user namespace of its own whose inotify limit is that many instances (0:
 * file watching exhausted, as a busy machine's editors and build watchers leave it), with nobody else affected.
 */
export function spawnChild(job: Record<string, unknown>, limits: { inotifyInstances?: number } = {}): Child {
	const argv = [process.execPath, CHILD_SCRIPT, JSON.stringify(job)];
	const [command, ...args] =
		limits.inotifyInstances === undefined
			? argv
			: [
					"unshare",
					"--user",
					"--map-root-user",
					"sh",
					"-c",
					`echo ${limits.inotifyInstances} > /proc/sys/user/max_inotify_instances && exec "$@"`,
					"sh",
					...argv,
				];
	const child = spawn(command ?? process.execPath, args, {
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...process.env, NODE_NO_WARNINGS: "1" },
	});
	const lines: Record<string, unknown>[] = [];
	let stderr = "";
	child.stderr?.on("data", (chunk: Buffer) => {
		stderr += chunk.toString("utf8");
	});
	const waiters: (() => void)[] = [];
	if (child.stdout) {
		createInterface({ input: child.stdout }).on("line", (line) => {
			lines.push(JSON.parse(line) as Record<string, unknown>);
			for (const wake of waiters.splice(0)) wake();
		});
	}
	const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
	// "exit" can come before the last stdout lines are read; "close" comes after every stream has ended.
	let closed = false;
	child.once("close", () => {
		closed = true;
		for (const wake of waiters.splice(0)) wake();
	});
	onCleanup(() => {
		if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
	});
	return {
		process: child,
		lines,
		stderr: () => stderr,
		exited,
		async next(predicate, timeoutMs = 15_000) {
			const start = Date.now();
			for (;;) {
				const found = lines.find(predicate);
				if (found) return found;
				if (closed) {
					throw new Error(`child exited (${child.exitCode ?? child.signalCode}) first: ${stderr}`);
				}
				if (Date.now() - start > timeoutMs)
					throw new Error(`child line not seen in ${timeoutMs} ms: ${stderr}`);
				await new Promise<void>((resolve) => {
					waiters.push(resolve);
					setTimeout(resolve, 50);
				});
			}
		},
	};
}
