import { processWide } from "../process-wide.ts";
import {
	announcedParent,
	endedHere,
	liveSession,
	otherLiveSessions,
	type ProcessSession,
} from "./process-sessions.ts";
import { inboxLayout, type ParentLink, parseParentLink, readServerInfo } from "./protocol.ts";

/** Where this session's asks go when its own policy cannot settle them. */
export interface ParentTarget {
	readonly sessionId: string;
	/** The parent's inbox directory. */
	readonly inbox: string;
	/** An in-process child shares its parent's process: there is no pid to watch. */
	readonly location: "same-process" | "other-process";
	/** The parent's pid when known; for another process found by session id it is read from the inbox. */
	readonly pid: number | null;
	/** Agent labels from the root down to the parent. */
	readonly path: readonly string[];
	/** How each hop of `path` is shown (adr/0025), when the parent said (see `shownOrClaimed`). */
	readonly shown?: readonly string[];
	/** The root's project, when the parent says (adr/0008). */
	readonly project?: string;
	/** How the parent was found, for `/permissions` and the audit. */
	readonly via: string;
}

export type ParentResolution =
	| { readonly kind: "root" }
	| { readonly kind: "child"; readonly parent: ParentTarget }
	/** Marked as a subagent, but no parent could be found: asks cannot be forwarded. */
	| { readonly kind: "orphan"; readonly why: string };

export interface ParentInputs {
	readonly sessionId: string;
	readonly hasUI: boolean;
	readonly agentDir: string;
	/** Parent variables as this process inherited them (see inheritedEnv). */
	readonly inherited: Readonly<Record<string, string | undefined>>;
	/** The current environment, for launcher markers. */
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly pid: number;
	/** This session's file, when persisted (in-process launchers file it under the parent's). */
	readonly sessionFile: string | null;
}

/**
 * Find this session's parent, most reliable signal first:
 * 1. an in-process launcher's announcement naming a live session of this process, or a live session of this
 *    process whose session file holds ours (pi-subagents files a child's session under its parent's);
 * 2. our own variable, inherited from the process that spawned us (never one our own process set), narrowed to
 *    the session inside that process whose bash tool started us when that is not the one the variable names;
 * 3. a launcher's parent-session variable (`PI_SUBAGENT_PARENT_SESSION`, `PI_AGENT_ROUTER_PARENT_SESSION_ID`)
 *    naming a session outside this process, or a live one inside it — never this session or an ended one;
 * 4. an unannounced in-process child: bound without a UI while another session of this process serves;
 * otherwise a root, or an orphan when a launcher marked us as a subagent.
 */
export function resolveParent(inputs: ParentInputs): ParentResolution {
	const { sessionId, agentDir } = inputs;
	const announced = announcedParent(sessionId);
	const announcedLive = announced ? liveSession(announced) : undefined;
	if (announcedLive && hasInbox(announcedLive)) {
		return { kind: "child", parent: inProcess(announcedLive, "announced on pi.events") };
	}
	const filedUnder = sessionFiledUnder(inputs.sessionFile, sessionId);
	if (filedUnder) return { kind: "child", parent: inProcess(filedUnder, "session file under the parent's") };

	const link = parseParentLink(inputs.inherited.PI_PERMISSION_HUB_PARENT);
	if (link && link.sessionId !== sessionId && link.pid !== inputs.pid) {
		const spawner = sessionInLinkedProcess(inputs, link);
		if (spawner) return { kind: "child", parent: spawner };
		return {
			kind: "child",
			parent: {
				sessionId: link.sessionId,
				inbox: link.inbox,
				location: "other-process",
				pid: link.pid,
				path: link.path,
				...(link.shown ? { shown: link.shown } : {}),
				...(link.project ? { project: link.project } : {}),
				via: "PI_PERMISSION_HUB_PARENT",
			},
		};
	}

	for (const variable of ["PI_SUBAGENT_PARENT_SESSION", "PI_AGENT_ROUTER_PARENT_SESSION_ID"] as const) {
		const named = (inputs.inherited[variable] ?? inputs.env[variable])?.trim();
		if (!named || named === "unknown" || named === sessionId || endedHere(named)) continue;
		const live = liveSession(named);
		if (live) {
			if (hasInbox(live)) return { kind: "child", parent: inProcess(live, variable) };
			continue;
		}
		return {
			kind: "child",
			parent: {
				sessionId: named,
				inbox: inboxLayout(agentDir, named).root,
				location: "other-process",
				pid: null,
				path: ["root"],
				via: variable,
			},
		};
	}

	if (!inputs.hasUI) {
		const host = otherLiveSessions(sessionId).find(hasInbox);
		if (host) return { kind: "child", parent: inProcess(host, "in-process session without a UI") };
	}

	if (markedAsSubagent(inputs.env)) {
		return {
			kind: "orphan",
			why: "a subagent launcher marked this session as a subagent, but no parent session could be found",
		};
	}
	return { kind: "root" };
}

/**
 * The session that ran the command which started us, when it is another session inside the process the link
 * names: an in-process child (pi-subagents' foreground subagents) spawning through its bash tool. The link names
 * the process's first session (the root: only it writes the variable), but pi's bash tool tells each command
 * which session runs it (`PI_SESSION_ID`); that session serves its own inbox from the linked process, so its
 * `server.json` confirms it. Routed there, the ask keeps that hop in its path instead of skipping to the root.
 */
function sessionInLinkedProcess(inputs: ParentInputs, link: ParentLink): ParentTarget | null {
	const spawner = inputs.inherited.PI_SESSION_ID?.trim();
	if (!spawner || spawner === link.sessionId || spawner === inputs.sessionId) return null;
	const inbox = inboxLayout(inputs.agentDir, spawner);
	const info = readServerInfo(inbox.server);
	if (info?.sessionId !== spawner || info.pid !== link.pid) return null;
	return {
		sessionId: spawner,
		inbox: inbox.root,
		location: "other-process",
		pid: link.pid,
		path: info.path,
		...(link.project ? { project: link.project } : {}),
		via: "PI_SESSION_ID (a session inside the process PI_PERMISSION_HUB_PARENT names)",
	};
}

function inProcess(session: ProcessSession & { readonly inbox: string }, via: string): ParentTarget {
	return {
		sessionId: session.sessionId,
		inbox: session.inbox,
		location: "same-process",
		pid: null,
		path: session.path,
		shown: session.shown,
		...(session.project ? { project: session.project } : {}),
		via,
	};
}

function hasInbox(session: ProcessSession): session is ProcessSession & { readonly inbox: string } {
	return session.inbox !== null;
}

/**
 * The live serving session of this process whose session file's directory stem contains ours, the deepest one:
 * `<parent>.jsonl` → children at `<parent>/…/session.jsonl`. Unlike a launcher's parent variable (which names the
 * root for every descendant), this tells a grandchild from a child.
 */
function sessionFiledUnder(
	sessionFile: string | null,
	sessionId: string,
): (ProcessSession & { inbox: string }) | null {
	if (!sessionFile) return null;
	let best: (ProcessSession & { inbox: string }) | null = null;
	for (const candidate of otherLiveSessions(sessionId)) {
		if (!hasInbox(candidate) || !candidate.sessionFile) continue;
		const stem = candidate.sessionFile.replace(/\.jsonl$/, "");
		if (!sessionFile.startsWith(`${stem}/`)) continue;
		if (best === null || stem.length > (best.sessionFile ?? "").length) best = candidate;
	}
	return best;
}

/**
 * The environment this process was started with, for the variables that name a parent. A serving session
 * writes its own values into `process.env` (so the processes it spawns inherit them); reading them back later
 * (after `/new`, a reload, another in-process session) must not make the session its own parent. The first
 * copy of this module to load in a process records the inherited values, before any session wrote over them.
 */
export const PARENT_VARIABLES = [
	"PI_PERMISSION_HUB_PARENT",
	/** Set by pi's bash tool in each command it runs: the session that ran it. */
	"PI_SESSION_ID",
	"PI_SUBAGENT_PARENT_SESSION",
	"PI_AGENT_ROUTER_PARENT_SESSION_ID",
] as const;

export function inheritedEnv(): Readonly<Record<string, string | undefined>> {
	return processWide<Readonly<Record<string, string | undefined>>>("inherited-env.v1", () =>
		Object.freeze(Object.fromEntries(PARENT_VARIABLES.map((name) => [name, process.env[name]]))),
	);
}

// Record at load time: the earliest moment this package runs in the process.
inheritedEnv();

/**
 * Variables subagent launchers set in their children (pi-subagents, pi-agent-router, pi-interactive-subagents
 * and others). Any of them marks this session as a subagent even when no parent can be found; the names are
 * caller-claimed labels, sanitized before use.
 */
export const SUBAGENT_MARKERS = [
	"PI_SUBAGENT_CHILD",
	"PI_SUBAGENT_RUN_ID",
	"PI_SUBAGENT_CHILD_AGENT",
	"PI_SUBAGENT_DEPTH",
	"PI_SUBAGENT_NAME",
	"PI_SUBAGENT_ID",
	"PI_SUBAGENT_SESSION",
	"PI_SUBAGENT_SESSION_ID",
	"PI_SUBAGENT_ACTIVITY_FILE",
	"PI_IS_SUBAGENT",
	"PI_AGENT_ROUTER_SUBAGENT",
] as const;

/** Where a launcher puts the child's agent name, most specific first. */
const NAME_VARIABLES = [
	"PI_PERMISSION_HUB_AGENT",
	"PI_SUBAGENT_CHILD_AGENT",
	"PI_SUBAGENT_NAME",
	"PI_SUBAGENT_AGENT",
];

export function markedAsSubagent(env: Readonly<Record<string, string | undefined>>): boolean {
	return SUBAGENT_MARKERS.some((name) => (env[name] ?? "").trim() !== "");
}

export function claimedAgentName(env: Readonly<Record<string, string | undefined>>): string | null {
	for (const name of NAME_VARIABLES) {
		const value = env[name]?.trim();
		if (value) return value;
	}
	return null;
}
