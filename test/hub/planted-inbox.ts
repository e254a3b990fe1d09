/** Inboxes as sessions that served leave them, aged with utimes, for the stale-inbox sweep's tests. */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { type InboxLayout, inboxLayout, PROTOCOL } from "../../src/hub/protocol.ts";

export const DAY_MS = 24 * 60 * 60 * 1000;

/** An inbox as a serving session leaves it, every part last touched `ageMs` ago. */
export function plantInbox(
	agentDir: string,
	sessionId: string,
	ageMs: number,
	server?: { pid: number; startToken: string | null },
): InboxLayout {
	const layout = inboxLayout(agentDir, sessionId);
	for (const dir of [layout.requests, layout.responses, layout.claims, layout.children]) {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
	}
	if (server) {
		const info = {
			protocol: PROTOCOL,
			sessionId,
			...server,
			path: ["root"],
			startedAt: new Date().toISOString(),
		};
		writeFileSync(layout.server, JSON.stringify(info), { mode: 0o600 });
	}
	age(layout, ageMs);
	return layout;
}

export function age(layout: InboxLayout, ageMs: number): void {
	const when = new Date(Date.now() - ageMs);
	for (const part of [
		layout.requests,
		layout.responses,
		layout.claims,
		layout.children,
		layout.server,
		layout.root,
	]) {
		if (existsSync(part)) utimesSync(part, when, when);
	}
}
