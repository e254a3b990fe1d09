import { EventEmitter } from "node:events";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { forwardAsk } from "../../src/hub/hub-client.ts";
import { inboxLayout, newRequestId, requestFile } from "../../src/hub/protocol.ts";
import {
	ALLOW_BY_TEST,
	heldDecide,
	makeRequest,
	PARENT_SESSION,
	readLog,
	spawnChild,
	startServer,
	tempAgentDir,
	testHubLog,
	waitUntil,
} from "./hub-fixture.ts";

describe("the server's file watching", () => {
	it("an inbox cluttered with 20,000 leftover temp files: a burst of 100 asks is still served", async () => {
		// chokidar turns directory events into add/unlink by re-reading the directory, throttled to one re-read
		// per second; a re-read slower than that (a big directory here, a loaded machine in real life) loses the
		// burst silently. The server also acts on the raw events, which name every file.
		const agentDir = tempAgentDir();
		const layout = inboxLayout(agentDir, PARENT_SESSION);
		mkdirSync(layout.requests, { recursive: true, mode: 0o700 });
		for (let i = 0; i < 20_000; i++) writeFileSync(join(layout.requests, `${newRequestId()}.json.${i}`), "");
		const { target, log, calls } = await startServer(agentDir);
		const outcomes = await Promise.all(
			Array.from({ length: 100 }, () => forwardAsk(target, makeRequest(), { timeoutMs: 8000, log })),
		);
		const answered = outcomes.filter((o) => o.kind === "answered").length;
		expect(answered).toBe(100);
		expect(calls.size).toBe(100);
		// The clutter is not requests: nothing was rejected or removed.
		expect(readdirSync(layout.requests)).toHaveLength(20_000);
	});

	it("requests/ removed under a running server: it logs it, rebuilds the inbox and serves again", async () => {
		const agentDir = tempAgentDir();
		const { layout, log, target, calls } = await startServer(agentDir);
		rmSync(layout.requests, { recursive: true });
		await waitUntil("inbox rebuilt", () => {
			try {
				return statSync(layout.requests).isDirectory() && (statSync(layout.requests).mode & 0o777) === 0o700;
			} catch {
				return false;
			}
		});
		await waitUntil("removal logged", () =>
			readLog(log.file).some((l) => l.event === "server.inbox_removed"),
		);
		const request = makeRequest();
		const outcome = await forwardAsk(target, request, { timeoutMs: 10_000, log });
		expect(outcome.kind).toBe("answered");
		expect(calls.get(request.id)).toBe(1);
	});

	it("the whole inbox removed (server.json too): rebuilt, and children find the server again", async () => {
		const agentDir = tempAgentDir();
		const { layout, log, target } = await startServer(agentDir);
		rmSync(layout.root, { recursive: true });
		await waitUntil("inbox rebuilt", () => {
			try {
				const names = readdirSync(layout.root);
				return ["claims", "requests", "responses", "server.json"].every((n) => names.includes(n));
			} catch {
				return false;
			}
		});
		const outcome = await forwardAsk(target, makeRequest(), { timeoutMs: 10_000, log });
		expect(outcome.kind).toBe("answered");
	});

	it("responses/ removed while an ask is being decided: the answer still arrives", async () => {
		const agentDir = tempAgentDir();
		const held = heldDecide();
		const { layout, log, target } = await startServer(agentDir, held.decide);
		const request = makeRequest();
		const pending = forwardAsk(target, request, { timeoutMs: 10_000, log });
		await waitUntil("deciding", () => held.pending.has(request.id));
		rmSync(layout.responses, { recursive: true });
		held.pending.get(request.id)?.answer(ALLOW_BY_TEST);
		const outcome = await pending;
		expect(outcome.kind).toBe("answered");
		expect(statSync(layout.responses).mode & 0o777).toBe(0o700);
	});

	it("a watcher error is logged and followed by a reconcile that picks up what the watcher missed", async () => {
		const agentDir = tempAgentDir();
		const { server, layout, log, calls } = await startServer(agentDir);
		// Nothing this test can do to the kernel makes chokidar fail on demand (ENOSPC/EMFILE would hit every
		// process of the user), so the server's real watcher is made to lose events and then report an error.
		const watcher: unknown = Reflect.get(server, "watcher");
		if (!(watcher instanceof EventEmitter)) throw new Error("server is not watching");
		for (const event of ["raw", "add", "change"]) watcher.removeAllListeners(event);
		const request = makeRequest();
		// Once the watcher has reported the file both ways the server listened for, it has had its chance.
		const reported = { raw: false, add: false };
		const names = (file: unknown): boolean =>
			typeof file === "string" && basename(file) === `${request.id}.json`;
		watcher.on("raw", (_event, file) => {
			if (names(file)) reported.raw = true;
		});
		watcher.on("add", (file) => {
			if (names(file)) reported.add = true;
		});
		writeFileSync(requestFile(layout, request.id), JSON.stringify(request));
		await waitUntil("the watcher to report the request", () => reported.raw && reported.add);
		expect(calls.size).toBe(0);
		watcher.emit("error", Object.assign(new Error("inotify queue overflow"), { code: "EOVERFLOW" }));
		await waitUntil("decided after the reconcile", () => calls.get(request.id) === 1);
		await waitUntil("logged", () =>
			readLog(log.file).some((l) => l.event === "server.watch_error" && l.code === "EOVERFLOW"),
		);
	});

	it("file watching exhausted at the server's start (no inotify instance left): it polls, and 100 asks are answered", async () => {
		// Its own user namespace with an inotify limit of 0: the server's first watcher fails before `ready`.
		const agentDir = tempAgentDir();
		const log = testHubLog(join(agentDir, "hub.log"));
		const server = spawnChild(
			{ mode: "serve", agentDir, sessionId: PARENT_SESSION, logFile: log.file, decide: "allow" },
			{ inotifyInstances: 0 },
		);
		await server.next((line) => line.event === "serving");
		const target = {
			sessionId: PARENT_SESSION,
			inbox: inboxLayout(agentDir, PARENT_SESSION).root,
			location: "other-process" as const,
			pid: server.process.pid ?? null,
			path: ["root"],
			via: "test",
		};
		const started = performance.now();
		const outcomes = await Promise.all(
			Array.from({ length: 100 }, () => forwardAsk(target, makeRequest(), { timeoutMs: 15_000, log })),
		);
		expect(outcomes.filter((o) => o.kind === "answered")).toHaveLength(100);
		expect(performance.now() - started).toBeLessThan(15_000);
		expect(readLog(log.file).some((l) => l.event === "server.polling_fallback")).toBe(true);
	}, 30_000);
});
