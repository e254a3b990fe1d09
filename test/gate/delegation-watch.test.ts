import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Delegation } from "../../src/gate/delegation-guard.ts";
import { DelegationWatch } from "../../src/gate/delegation-guard.ts";
import {
	announcedChildren,
	announceToParent,
	type ChildAnnouncement,
	childrenAnnouncedSince,
	endAnnouncement,
} from "../../src/hub/child-announcement.ts";
import { ensurePrivateDir } from "../../src/hub/private-files.ts";
import { type InboxLayout, inboxLayout, PROTOCOL } from "../../src/hub/protocol.ts";

const roots: string[] = [];
afterEach(() => {
	for (const root of roots.splice(0))
		rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

function parentInbox(): InboxLayout {
	const agentDir = mkdtempSync(path.join(os.tmpdir(), "pph-watch-"));
	roots.push(agentDir);
	const layout = inboxLayout(agentDir, "root-session");
	ensurePrivateDir(layout.children, agentDir);
	return layout;
}

function child(sessionId: string, startedAt: Date): ChildAnnouncement {
	return {
		protocol: PROTOCOL,
		sessionId,
		agent: "delegate",
		path: ["root", "delegate"],
		pid: process.pid,
		inProcess: true,
		startedAt: startedAt.toISOString(),
	};
}

const UNGATED: Delegation = {
	launcher: { kind: "pi-subagents", packageRoot: "/pkgs/pi-subagents", source: null },
	call: {
		launches: true,
		foreground: true,
		agents: ["delegate"],
		cwds: ["/work"],
		withoutExtensions: false,
		tasks: [],
		tintinwebRuns: [],
	},
	verdict: {
		gated: false,
		why: "no extensions are configured",
		fix: {
			file: "/agent/settings.json",
			field: "subagents.defaultExtensions",
			text: 'add "/pkgs/pph" to `subagents.defaultExtensions` in /agent/settings.json',
			automatic: null,
		},
	},
	reach: { loads: [], outside: [] },
	uncontained: null,
};

function watching(layout: InboxLayout | null) {
	const warnings: string[] = [];
	const logged: string[] = [];
	const watch = new DelegationWatch({
		childrenSince: (since) => (layout ? childrenAnnouncedSince(layout, since) : null),
		warn: (message) => warnings.push(message),
		log: (event) => logged.push(event),
	});
	return { watch, warnings, logged };
}

describe("child announcements outlive the child, marked ended", () => {
	it("an ended child is no longer listed as running, but still counts as announced since the delegation began", () => {
		const layout = parentInbox();
		const before = Date.now();
		expect(announceToParent(layout, child("c1", new Date()))).toBeNull();
		expect(announcedChildren(layout).map((c) => c.sessionId)).toEqual(["c1"]);
		endAnnouncement(layout, "c1");
		expect(announcedChildren(layout)).toEqual([]);
		const since = childrenAnnouncedSince(layout, before);
		expect(since.map((c) => c.sessionId)).toEqual(["c1"]);
		expect(since[0]?.endedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
		expect(childrenAnnouncedSince(layout, Date.now() + 1000)).toEqual([]);
		// Ending twice keeps the first end time; ending an unknown child writes nothing.
		const first = readFileSync(path.join(layout.children, "c1.json"), "utf8");
		endAnnouncement(layout, "c1");
		endAnnouncement(layout, "nobody");
		expect(readFileSync(path.join(layout.children, "c1.json"), "utf8")).toBe(first);
	});

	it("a process child that died without saying so is not listed as running", () => {
		const layout = parentInbox();
		announceToParent(layout, { ...child("dead", new Date()), inProcess: false, pid: 2 ** 22 + 12345 });
		expect(announcedChildren(layout)).toEqual([]);
		expect(childrenAnnouncedSince(layout, 0)).toHaveLength(1);
	});
});

describe("the watch after a delegation", () => {
	it("warns, with the fix, when no gated child announced itself while the call ran", () => {
		const layout = parentInbox();
		const { watch, warnings, logged } = watching(layout);
		announceToParent(layout, child("earlier", new Date(Date.now() - 60_000)));
		watch.started("call-1", "subagent", UNGATED, Date.now());
		watch.finished("call-1", false);
		expect(warnings).toEqual([
			'pi-permission-hub: the subagent ran without the permission gate — no gated child announced itself during this subagent call. To gate subagents, add "/pkgs/pph" to `subagents.defaultExtensions` in /agent/settings.json.',
		]);
		expect(logged).toEqual(["delegation.ungated_child"]);
		// Each call is checked once.
		watch.finished("call-1", false);
		expect(warnings).toHaveLength(1);
	});

	it("stays quiet when a gated child announced itself during the call", () => {
		const layout = parentInbox();
		const { watch, warnings } = watching(layout);
		const start = Date.now();
		watch.started("call-2", "subagent", UNGATED, start);
		announceToParent(layout, child("during", new Date(start + 5)));
		endAnnouncement(layout, "during");
		watch.finished("call-2", false);
		expect(warnings).toEqual([]);
	});

	it("words a failed call as a possibility; says nothing for background runs, management calls, or without an inbox", () => {
		const layout = parentInbox();
		const { watch, warnings } = watching(layout);
		watch.started("failed", "subagent", UNGATED, Date.now());
		watch.finished("failed", true);
		expect(warnings[0]).toContain(
			"the subagent call failed and no gated child announced itself: if a subagent ran",
		);
		const background: Delegation = { ...UNGATED, call: { ...UNGATED.call, foreground: false } };
		const listing: Delegation = { ...UNGATED, call: { ...UNGATED.call, launches: false } };
		watch.started("bg", "subagent", background, Date.now());
		watch.started("list", "subagent", listing, Date.now());
		watch.finished("bg", false);
		watch.finished("list", false);
		watch.finished("never-started", false);
		expect(warnings).toHaveLength(1);
		const headless = watching(null);
		headless.watch.started("h", "subagent", UNGATED, Date.now());
		headless.watch.finished("h", false);
		expect(headless.warnings).toEqual([]);
	});

	it("when the settings looked right but no child announced itself, it says the check was wrong", () => {
		const layout = parentInbox();
		const { watch, warnings } = watching(layout);
		const gated: Delegation = { ...UNGATED, verdict: { gated: true, via: "`subagents.defaultExtensions`" } };
		watch.started("c", "subagent", gated, Date.now());
		watch.finished("c", false);
		expect(warnings[0]).toContain("Its settings looked right (`subagents.defaultExtensions`)");
	});
});
