/**
 * Old inboxes of sessions that are over are removed, on real directories aged with utimes; everything that might
 * still be in use (a live server, a recent write anywhere in the inbox, this session's own) and everything odd
 * (symlinks, plain files) is left alone.
 */
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processStartToken } from "../../src/hub/liveness.ts";
import { hubRoot, inboxLayout } from "../../src/hub/protocol.ts";
import { removeStaleInboxes } from "../../src/hub/stale-inboxes.ts";
import { deadPid, tempAgentDir } from "./hub-fixture.ts";
import { age, DAY_MS, plantInbox } from "./planted-inbox.ts";

describe("removing stale inboxes", () => {
	it("removes inboxes older than a week that nobody serves, and only those", async () => {
		const agentDir = tempAgentDir();
		const old = 8 * DAY_MS;
		const unserved = plantInbox(agentDir, "0192aaaa-0000-7000-8000-000000000001", old);
		const deadServer = plantInbox(agentDir, "0192aaaa-0000-7000-8000-000000000002", old, {
			pid: deadPid(),
			startToken: null,
		});
		const liveServer = plantInbox(agentDir, "0192aaaa-0000-7000-8000-000000000003", old, {
			pid: process.pid,
			startToken: processStartToken(process.pid),
		});
		const recycledPid = plantInbox(agentDir, "0192aaaa-0000-7000-8000-000000000004", old, {
			pid: process.pid,
			startToken: "1",
		});
		const young = plantInbox(agentDir, "0192aaaa-0000-7000-8000-000000000005", 6 * DAY_MS);
		const ownSession = "0192aaaa-0000-7000-8000-000000000006";
		const own = plantInbox(agentDir, ownSession, old);
		const recentChild = plantInbox(agentDir, "0192aaaa-0000-7000-8000-000000000007", old);
		writeFileSync(join(recentChild.children, "child.json"), "{}");

		const sweep = await removeStaleInboxes(agentDir, { keep: ownSession });

		expect([...sweep.removed].sort()).toEqual([unserved.root, deadServer.root, recycledPid.root].sort());
		expect(sweep.failed).toEqual([]);
		for (const gone of [unserved, deadServer, recycledPid]) expect(existsSync(gone.root)).toBe(false);
		for (const kept of [liveServer, young, own, recentChild]) expect(existsSync(kept.root)).toBe(true);
	});

	it("leaves symlinks (and what they point to) and plain files in inbox/ alone", async () => {
		const agentDir = tempAgentDir();
		const elsewhere = inboxLayout(join(agentDir, "elsewhere"), "0192bbbb-0000-7000-8000-000000000001");
		for (const dir of [elsewhere.requests, elsewhere.children]) mkdirSync(dir, { recursive: true });
		age(elsewhere, 30 * DAY_MS);
		const inboxes = join(hubRoot(agentDir), "inbox");
		mkdirSync(inboxes, { recursive: true });
		symlinkSync(elsewhere.root, join(inboxes, "linked"));
		writeFileSync(join(inboxes, "stray.txt"), "not an inbox");
		const when = new Date(Date.now() - 30 * DAY_MS);
		utimesSync(join(inboxes, "stray.txt"), when, when);

		const sweep = await removeStaleInboxes(agentDir);

		expect(sweep).toEqual({ removed: [], failed: [] });
		expect(existsSync(join(inboxes, "linked"))).toBe(true);
		expect(existsSync(elsewhere.children)).toBe(true);
		expect(existsSync(join(inboxes, "stray.txt"))).toBe(true);
	});

	it("an agent dir without any inbox is nothing to do", async () => {
		await expect(removeStaleInboxes(join(tempAgentDir(), "never-created"))).resolves.toEqual({
			removed: [],
			failed: [],
		});
	});

	it("a session that ends stops the sweep at once: 2,000 old inboxes do not hold it, the next sweep goes on", async () => {
		const agentDir = tempAgentDir();
		const planted = Array.from({ length: 2000 }, (_, n) =>
			plantInbox(agentDir, `0192bbbb-0000-7000-8000-${String(n).padStart(12, "0")}`, 8 * DAY_MS),
		);
		const stop = new AbortController();
		const sweeping = removeStaleInboxes(agentDir, { signal: stop.signal });
		await new Promise((resolve) => setTimeout(resolve, 20));
		const stopped = performance.now();
		stop.abort();
		const first = await sweeping;
		expect(performance.now() - stopped).toBeLessThan(200);
		expect(first.removed.length).toBeLessThan(planted.length);
		const rest = await removeStaleInboxes(agentDir);
		expect(first.removed.length + rest.removed.length).toBe(planted.length);
	});
});
