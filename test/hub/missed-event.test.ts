/**
 * A request whose file-system event the serving process never got (an inotify queue overflow: Linux drops
 * events past `max_queued_events` without telling the watcher which) must still be served.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forwardAsk } from "../../src/hub/hub-client.ts";
import { inboxLayout, requestFile } from "../../src/hub/protocol.ts";
import type { ParentTarget } from "../../src/hub/resolve-parent.ts";
import {
	makeRequest,
	PARENT_SESSION,
	spawnChild,
	tempAgentDir,
	testHubLog,
	waitUntil,
} from "./hub-fixture.ts";

/** Events past the kernel's per-watcher queue limit are dropped; this many more fill it for certain. */
function overflowQueue(dir: string): void {
	const limit = Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8"));
	// Each create + unlink queues at least two events.
	for (let i = 0; i < limit; i++) {
		const file = join(dir, `noise-${i}`);
		writeFileSync(file, "");
		unlinkSync(file);
	}
}

describe("a request event the server missed", () => {
	it("an ask written while the serving process's event queue overflowed is still decided", async () => {
		const agentDir = tempAgentDir();
		const noise = join(agentDir, "noise");
		mkdirSync(noise);
		const log = testHubLog(join(agentDir, "hub.log"));
		const server = spawnChild({
			mode: "serve",
			agentDir,
			sessionId: PARENT_SESSION,
			logFile: log.file,
			decide: "allow",
			alsoWatch: noise,
		});
		await server.next((l) => l.event === "serving");
		const pid = server.process.pid;
		if (pid === undefined) throw new Error("no server pid");
		const layout = inboxLayout(agentDir, PARENT_SESSION);
		const target: ParentTarget = {
			sessionId: PARENT_SESSION,
			inbox: layout.root,
			location: "other-process",
			pid,
			path: ["root"],
			via: "test",
		};
		const request = makeRequest();
		// Stopped, the server reads no events: the kernel queues them, fills the queue with the other directory's,
		// and drops the request's. It never re-reads requests/ on its own, since nothing there reached it.
		process.kill(pid, "SIGSTOP");
		let asked: ReturnType<typeof forwardAsk>;
		try {
			overflowQueue(noise);
			asked = forwardAsk(target, request, { timeoutMs: 8000, log });
			await waitUntil("the request is in the inbox", () => {
				try {
					return readFileSync(requestFile(layout, request.id), "utf8").length > 0;
				} catch {
					return false;
				}
			});
		} finally {
			process.kill(pid, "SIGCONT");
		}
		const started = Date.now();
		const outcome = await asked;
		console.log(`missed event: ${outcome.kind} after ${Date.now() - started} ms`);
		expect(outcome).toMatchObject({ kind: "answered", response: { decision: "allow" } });
		expect(server.lines.filter((l) => l.event === "deciding" && l.id === request.id)).toHaveLength(1);
	}, 30_000);
});
