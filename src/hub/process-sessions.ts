import { processWide } from "../process-wide.ts";

/**
 * The pi sessions of this process, shared by every copy of the extension in it. It tells an in-process child
 * (a session a subagent launcher created inside the root's process) who its parent is, and keeps a session
 * from taking an ended session of its own process (before `/new`, `/resume`, `/fork`, reload) for a parent.
 */
export interface ProcessSession {
	readonly sessionId: string;
	readonly hasUI: boolean;
	/** The inbox this session serves, if it serves one. */
	readonly inbox: string | null;
	/** Agent labels from the root down to this session. */
	readonly path: readonly string[];
	/** How each hop of `path` is shown (adr/0025). */
	readonly shown: readonly string[];
	/** pi's session file, when persisted: launchers file a child's session under its parent's. */
	readonly sessionFile: string | null;
	readonly startedAt: number;
	/** The root's project, as this session counts it (adr/0008); absent for sessions that do not say. */
	readonly project?: string;
}

interface Registry {
	readonly live: Map<string, ProcessSession>;
	readonly ended: Set<string>;
	/** child session id → parent session id, from launcher announcements on pi.events. */
	readonly announced: Map<string, string>;
}

function registry(): Registry {
	return processWide<Registry>("process-sessions.v1", () => ({
		live: new Map(),
		ended: new Set(),
		announced: new Map(),
	}));
}

export function sessionStarted(session: ProcessSession): void {
	const r = registry();
	r.ended.delete(session.sessionId);
	r.live.set(session.sessionId, session);
}

export function sessionEnded(sessionId: string): void {
	const r = registry();
	r.live.delete(sessionId);
	r.ended.add(sessionId);
	r.announced.delete(sessionId);
}

export function liveSession(sessionId: string): ProcessSession | undefined {
	return registry().live.get(sessionId);
}

export function endedHere(sessionId: string): boolean {
	return registry().ended.has(sessionId);
}

/** Live sessions of this process other than `sessionId`, newest first. */
export function otherLiveSessions(sessionId: string): ProcessSession[] {
	return [...registry().live.values()]
		.filter((s) => s.sessionId !== sessionId)
		.sort((a, b) => b.startedAt - a.startedAt);
}

export function announceChild(childSessionId: string, parentSessionId: string): void {
	registry().announced.set(childSessionId, parentSessionId);
}

export function announcedParent(childSessionId: string): string | undefined {
	return registry().announced.get(childSessionId);
}
