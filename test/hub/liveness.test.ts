import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { forwardAsk } from "../../src/hub/hub-client.ts";
import { processAlive } from "../../src/hub/liveness.ts";
import { inboxLayout, requestFile } from "../../src/hub/protocol.ts";
import type { ParentTarget } from "../../src/hub/resolve-parent.ts";
import {
	CHILD_SCRIPT,
	childAskHeld,
	makeRequest,
	onCleanup,
	PARENT_SESSION,
	readLog,
	spawnChild,
	startServer,
	tempAgentDir,
	testHubLog,
	waitUntil,
} from "./hub-fixture.ts";

/** The hub's promise (adr/0016): learned within 2 s. */
const PROMISE_MS = 2000;

function targetFor(agentDir: string, pid: number | null): ParentTarget {
	return {
		sessionId: PARENT_SESSION,
		inbox: inboxLayout(agentDir, PARENT_SESSION).root,
		location: "other-process",
		pid,
		path: ["root"],
		via: "test",
	};
}

describe("liveness: a parent that goes away", () => {
	it("kill -9 of the serving parent process: the waiting child returns unavailable within 2 s", async () => {
		const agentDir = tempAgentDir();
		const logFile = join(agentDir, "hub.log");
		const parent = spawnChild({
			mode: "serve",
			agentDir,
			sessionId: PARENT_SESSION,
			logFile,
			decide: "hold",
		});
		await parent.next((l) => l.event === "serving");
		const parentPid = parent.process.pid ?? 0;
		const request = makeRequest();
		const pending = forwardAsk(targetFor(agentDir, parentPid), request, {
			timeoutMs: 60_000,
			log: testHubLog(logFile),
		});
		await parent.next((l) => l.event === "deciding" && l.id === request.id);
		const killedAt = performance.now();
		parent.process.kill("SIGKILL");
		const outcome = await pending;
		const ms = performance.now() - killedAt;
		console.log(`parent kill -9 → child unavailable after ${ms.toFixed(0)} ms`);
		expect(outcome.kind === "unavailable" && outcome.reason).toMatch(/parent session went away/);
		expect(ms).toBeLessThan(PROMISE_MS - 500);
		expect(existsSync(requestFile(inboxLayout(agentDir, PARENT_SESSION), request.id))).toBe(false);
		await waitUntil("logged", () => readLog(logFile).some((l) => l.event === "client.parent_gone"));
	});

	it("a killed parent that nobody reaps (a zombie) is noticed as gone too", async () => {
		const agentDir = tempAgentDir();
		const logFile = join(agentDir, "hub.log");
		const job = JSON.stringify({
			mode: "serve",
			agentDir,
			sessionId: PARENT_SESSION,
			logFile,
			decide: "hold",
		});
		// `sleep` becomes the server's parent and never waits for it: once killed, the server stays a zombie.
		const shell = spawn("sh", ["-c", `"$0" "$1" "$2" & exec sleep 60`, process.execPath, CHILD_SCRIPT, job], {
			stdio: ["ignore", "pipe", "inherit"],
		});
		onCleanup(() => {
			shell.kill("SIGKILL");
		});
		const serving = await new Promise<{ pid: number }>((resolve) => {
			if (!shell.stdout) throw new Error("no stdout");
			createInterface({ input: shell.stdout }).on("line", (line) => {
				const record = JSON.parse(line) as { event: string; pid: number };
				if (record.event === "serving") resolve(record);
			});
		});
		const request = makeRequest();
		const pending = forwardAsk(targetFor(agentDir, serving.pid), request, {
			timeoutMs: 60_000,
			log: testHubLog(logFile),
		});
		await waitUntil("the request is being decided", () =>
			existsSync(join(inboxLayout(agentDir, PARENT_SESSION).claims, request.id)),
		);
		const killedAt = performance.now();
		process.kill(serving.pid, "SIGKILL");
		const outcome = await pending;
		const ms = performance.now() - killedAt;
		let zombie = false;
		try {
			process.kill(serving.pid, 0);
			zombie = true;
		} catch {
			zombie = false;
		}
		console.log(`zombie parent (still signalable: ${zombie}) → child unavailable after ${ms.toFixed(0)} ms`);
		expect(zombie).toBe(true);
		expect(processAlive(serving.pid)).toBe(false);
		expect(outcome.kind).toBe("unavailable");
		expect(ms).toBeLessThan(PROMISE_MS - 500);
	});

	it("the parent session closes while its process lives on: the waiting child learns it within 2 s", async () => {
		const {
			server: { server, target },
			child,
		} = await childAskHeld({ timeoutMs: 60_000 });
		const closedAt = performance.now();
		await server.close();
		const outcome = await child.next((l) => l.event === "outcome");
		const ms = performance.now() - closedAt;
		console.log(`parent session closed → child unavailable after ${ms.toFixed(0)} ms`);
		expect(outcome).toMatchObject({ kind: "unavailable" });
		expect(ms).toBeLessThan(PROMISE_MS);
		expect(target.pid).toBe(process.pid);
	});
});

describe("liveness: a child that goes away", () => {
	it("kill -9 of a waiting child: the parent's decide signal aborts within 2 s and the ask is swept", async () => {
		const {
			server: { layout, log },
			held,
			child,
			id,
		} = await childAskHeld({ timeoutMs: 60_000 });
		const pending = held.pending.get(id);
		if (!pending) throw new Error("unreachable");
		const aborted = new Promise<number>((resolve) =>
			pending.signal.addEventListener("abort", () => resolve(performance.now())),
		);
		const killedAt = performance.now();
		child.process.kill("SIGKILL");
		const ms = (await aborted) - killedAt;
		console.log(`child kill -9 → parent's decide signal aborted after ${ms.toFixed(0)} ms`);
		expect(ms).toBeLessThan(PROMISE_MS - 500);
		// The dialog resolves after withdrawal: its answer goes nowhere, and the dead child's files go.
		pending.answer({
			decision: "allow",
			scope: "once",
			grants: [],
			source: { kind: "gate_error", reason: "late" },
		});
		await waitUntil("withdrawn", () =>
			readLog(log.file).some((l) => l.event === "server.withdrawn" && l.requestId === id),
		);
		await waitUntil("inbox empty", () =>
			[layout.requests, layout.responses, layout.claims].every((d) => readdirSync(d).length === 0),
		);
	});

	it("a child that cancels: its request file disappears and the parent's signal aborts", async () => {
		const {
			server: { layout },
			held,
			child,
			id,
		} = await childAskHeld({ abortAfterMs: 1000 });
		const outcome = await child.next((l) => l.event === "outcome");
		expect(outcome).toMatchObject({
			kind: "unavailable",
			reason: "the call was cancelled while the ask was pending",
		});
		const cancelledAt = performance.now();
		await waitUntil("signal aborted", () => held.pending.get(id)?.signal.aborted === true);
		console.log(
			`child cancel → parent's signal aborted ${(performance.now() - cancelledAt).toFixed(0)} ms after the child reported`,
		);
		expect(existsSync(requestFile(layout, id))).toBe(false);
		held.pending
			.get(id)
			?.answer({ decision: "deny", scope: "once", grants: [], source: { kind: "gate_error", reason: "x" } });
		await waitUntil("claim released", () => readdirSync(layout.claims).length === 0);
		expect(readdirSync(layout.responses)).toEqual([]);
	});

	it("a decide callback that rejects once withdrawn writes no orphan response", async () => {
		const agentDir = tempAgentDir();
		let seen: AbortSignal | null = null;
		const { layout, log, target } = await startServer(agentDir, ({ signal }) => {
			seen = signal;
			return new Promise((_resolve, reject) =>
				signal.addEventListener("abort", () => reject(new Error("dialog closed"))),
			);
		});
		const controller = new AbortController();
		const request = makeRequest();
		const pending = forwardAsk(target, request, {
			timeoutMs: 10_000,
			log,
			signal: controller.signal,
		});
		await waitUntil("deciding", () => seen !== null);
		controller.abort();
		await pending;
		// The server logs the withdrawal in the same step in which it would otherwise have answered, and removes
		// the claim there too: once the line is on disk, that step is over.
		await waitUntil("withdrawn", () =>
			readLog(log.file).some((l) => l.event === "server.withdrawn" && l.requestId === request.id),
		);
		expect(readdirSync(layout.responses)).toEqual([]);
		expect(readdirSync(layout.claims)).toEqual([]);
	});
});
