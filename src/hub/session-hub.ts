import { isAbsolute, join, relative } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { argDigest } from "../launchers/delegated-child.ts";
import type { SubagentClaim } from "../origin/origin.ts";
import { sanitizeLabel } from "../origin/sanitize-label.ts";
import {
	claimedHop,
	safeShownLabel,
	shownHop,
	shownOrClaimed,
	stableId,
	UNNAMED,
} from "../origin/shown-name.ts";
import {
	announcedChildren,
	announceToParent,
	type ChildAnnouncement,
	childrenAnnouncedSince,
	endAnnouncement,
	MAX_ARG_DIGESTS,
} from "./child-announcement.ts";
import { deliverRequest, forwardAsk, parentUnreachable } from "./hub-client.ts";
import { HubLog } from "./hub-log.ts";
import { HubServer } from "./hub-server.ts";
import { isUsable, type ParkedStore, type UnusableAnswer } from "./parked-store.ts";
import { announceChild, otherLiveSessions, sessionEnded, sessionStarted } from "./process-sessions.ts";
import {
	type ForwardRequest,
	hubRoot,
	type InboxLayout,
	inboxLayout,
	inboxLayoutAt,
	PARENT_ENV,
	PROTOCOL,
	serializeParentLink,
} from "./protocol.ts";
import { claimedAgentName, inheritedEnv, type ParentResolution, resolveParent } from "./resolve-parent.ts";
import { removeStaleInboxes } from "./stale-inboxes.ts";
import type { HubTransport, ServeOptions, ServingEndpoint } from "./transport.ts";

/** How asks travel today: files in a private inbox under the agent dir (adr/0006, adr/0016). */
export const fileTransport: HubTransport = {
	forward: forwardAsk,
	deliver: deliverRequest,
	unreachable: parentUnreachable,
	serve: (options) => new HubServer({ ...options, layout: inboxLayout(options.base, options.sessionId) }),
};

/** Launchers that create sessions inside this process announce them here (before binding extensions). */
const CHILD_CREATED_CHANNELS = ["subagents:child:session-created"];

export interface SessionHubOptions {
	readonly pi: ExtensionAPI;
	readonly sessionId: string;
	readonly hasUI: boolean;
	readonly agentDir: string;
	readonly cwd: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly parked: ParkedStore;
	/** pi's session file, when persisted. */
	readonly sessionFile: string | null;
	/** An agent name the launcher put in the system prompt (`<active_agent name="…">`), caller-claimed. */
	readonly promptAgentName: string | null;
}

/**
 * The hub as one session sees it, the one way the rest of the gate reaches it: who its parent is (if any), the
 * agent path used in dialogs and origins, the inbox it serves for its own children (opened, announced, swept and
 * closed here), and the parked requests of its project. A session serves when a human can be reached through
 * it: it has a UI, or it is a child that relays upward.
 */
export class SessionHub {
	readonly parent: ParentResolution;
	readonly path: readonly string[];
	/** How this session shows itself, hop by hop (adr/0025): its parent's labels, then its own. */
	readonly shown: readonly string[];
	readonly subagent: SubagentClaim | null;
	/**
	 * The root's project: the root's own directory, and for a child the one its parent names — narrowed to this
	 * session's own directory where the two differ, by whoever compares (adr/0008). A child whose parent names
	 * none counts its own directory.
	 */
	readonly project: string;
	readonly log: HubLog;
	readonly transport: HubTransport;
	private server: ServingEndpoint | null = null;
	/** The inbox this session serves, while it serves. */
	private inbox: InboxLayout | null = null;
	private readonly options: SessionHubOptions;
	private readonly unsubscribe: (() => void)[] = [];
	private restoreEnv: (() => void) | null = null;
	/** The sweep of other sessions' old inboxes that a serving root starts; close() stops it and waits for the inbox in hand. */
	private housekeeping: Promise<void> = Promise.resolve();
	/** Stops the sweep of old inboxes when the session closes: it never delays pi's exit. */
	private readonly sweeping = new AbortController();

	constructor(options: SessionHubOptions) {
		this.options = options;
		this.transport = fileTransport;
		this.log = new HubLog(join(hubRoot(options.agentDir), "hub.log"));
		const found = resolveParent({
			sessionId: options.sessionId,
			hasUI: options.hasUI,
			agentDir: options.agentDir,
			inherited: inheritedEnv(),
			env: options.env,
			pid: process.pid,
			sessionFile: options.sessionFile,
		});
		// A child forwards to its parent even when it has a UI of its own: the human the tree answers to is there
		// (its own UI is asked only when that parent cannot be, adr/0027).
		this.parent = found;
		// The prompt tag belongs to this session; the environment may be the root's (an in-process child).
		const claimed = sanitizeLabel(options.promptAgentName ?? claimedAgentName(options.env) ?? "");
		const label = claimed || (this.parent.kind === "root" ? "root" : UNNAMED);
		this.path = this.parent.kind === "child" ? [...this.parent.parent.path, label] : [label];
		this.shown = shownPathOf(this.parent, label, options.sessionId);
		this.subagent = this.parent.kind === "root" ? null : { name: label, path: this.path, shown: this.shown };
		this.project = (this.parent.kind === "child" ? this.parent.parent.project : undefined) ?? options.cwd;
		for (const channel of CHILD_CREATED_CHANNELS) {
			this.unsubscribe.push(options.pi.events.on(channel, (data) => this.onChildAnnounced(data)));
		}
	}

	/** True when asks this session cannot settle locally go to a parent. */
	get forwards(): boolean {
		return this.parent.kind === "child";
	}

	/** The inbox this session serves, or null when it serves none. */
	get serving(): InboxLayout | null {
		return this.inbox;
	}

	/**
	 * Open the inbox and tell spawned processes where it is. Only the process's first live session writes
	 * the variable: an in-process child must not redirect the root's other children to itself.
	 */
	async serve(answer: Pick<ServeOptions, "decide" | "undelivered">): Promise<void> {
		const { sessionId, agentDir, hasUI } = this.options;
		const layout = inboxLayout(agentDir, sessionId);
		const primary = otherLiveSessions(sessionId).length === 0;
		const serves = hasUI || this.forwards;
		sessionStarted({
			sessionId,
			hasUI,
			// Only a serving session can be a parent: an in-process child must not pick a headless root.
			inbox: serves ? layout.root : null,
			path: this.path,
			shown: this.shown,
			sessionFile: this.options.sessionFile,
			startedAt: Date.now(),
			project: this.project,
		});
		this.announce();
		if (!serves) return;
		this.server = this.transport.serve({
			base: agentDir,
			sessionId,
			path: this.path,
			log: this.log,
			...answer,
		});
		await this.server.open();
		// The file transport's inbox: children announce themselves into it (adr/0016).
		this.inbox = layout;
		if (this.parent.kind === "root") this.housekeeping = this.sweepStaleInboxes();
		if (primary) {
			const previous = process.env[PARENT_ENV];
			process.env[PARENT_ENV] = serializeParentLink({
				v: 1,
				sessionId,
				inbox: layout.root,
				pid: process.pid,
				path: [...this.path],
				shown: [...this.shown],
				project: this.project,
			});
			this.restoreEnv = () => {
				if (previous === undefined) delete process.env[PARENT_ENV];
				else process.env[PARENT_ENV] = previous;
			};
		}
	}

	/** Parked requests from this project that nobody answered yet (re-offered when a root with a UI starts). */
	parkedForThisProject(): ReturnType<ParkedStore["entries"]> {
		const { cwd, parked } = this.options;
		parked.sweep();
		return parked.entries().filter((e) => e.answer === null && inside(cwd, e.request.cwd));
	}

	/**
	 * Parked requests from this project whose answer file this version never uses (a newer version's, or one for
	 * another request or action): never approvals, and not offered again, since no other answer can be recorded.
	 */
	parkedWithUnusableAnswer(): { readonly request: ForwardRequest; readonly answer: UnusableAnswer }[] {
		const { cwd, parked } = this.options;
		return parked
			.entries()
			.flatMap(({ request, answer }) =>
				answer !== null && !isUsable(answer) && inside(cwd, request.cwd) ? [{ request, answer }] : [],
			);
	}

	/** The gated children that announced themselves to this session's inbox and still run. */
	children(): ChildAnnouncement[] {
		return this.inbox ? announcedChildren(this.inbox) : [];
	}

	/** Gated children that announced themselves since `sinceMs`, ended or not; null when this session serves no inbox. */
	childrenSince(sinceMs: number): ChildAnnouncement[] | null {
		return this.inbox ? childrenAnnouncedSince(this.inbox, sinceMs) : null;
	}

	async close(): Promise<void> {
		if (this.parent.kind === "child") {
			endAnnouncement(inboxLayoutAt(this.parent.parent.inbox), this.options.sessionId);
		}
		for (const off of this.unsubscribe) off();
		this.restoreEnv?.();
		sessionEnded(this.options.sessionId);
		this.sweeping.abort();
		await this.server?.close();
		this.server = null;
		this.inbox = null;
		await this.housekeeping;
	}

	/** Best effort, in the background: a failure is logged and changes nothing for this session. */
	private async sweepStaleInboxes(): Promise<void> {
		try {
			const sweep = await removeStaleInboxes(this.options.agentDir, {
				keep: this.options.sessionId,
				signal: this.sweeping.signal,
			});
			if (sweep.removed.length > 0)
				this.log.write("server.stale_inboxes_removed", { count: sweep.removed.length });
			for (const { inbox, error } of sweep.failed)
				this.log.write("server.stale_inbox_kept", { inbox, error });
		} catch (error) {
			this.log.write("server.stale_inbox_sweep_failed", { error: String(error) });
		}
	}

	/** A gated child tells its parent it exists; a parent that cannot be told is logged, not fatal. */
	private announce(): void {
		if (this.parent.kind !== "child") return;
		const { parent } = this.parent;
		const failed = announceToParent(inboxLayoutAt(parent.inbox), {
			protocol: PROTOCOL,
			sessionId: this.options.sessionId,
			agent: this.path.at(-1) ?? UNNAMED,
			path: [...this.path],
			pid: process.pid,
			inProcess: parent.location === "same-process",
			startedAt: new Date().toISOString(),
			// An in-process child shares its parent's arguments: they would say nothing about it.
			...(parent.location === "other-process"
				? { argDigests: process.argv.slice(2, 2 + MAX_ARG_DIGESTS).map(argDigest) }
				: {}),
		});
		if (failed) this.log.write("child.announce_failed", { parent: parent.sessionId, reason: failed });
	}

	private onChildAnnounced(data: unknown): void {
		if (typeof data !== "object" || data === null) return;
		const child: unknown = Reflect.get(data, "sessionId");
		const parent: unknown = Reflect.get(data, "parentSessionId");
		if (typeof child !== "string" || child === this.options.sessionId) return;
		announceChild(child, typeof parent === "string" ? parent : this.options.sessionId);
	}
}

/**
 * A session's labels: its parent's, then its own — the agent name it claims, else its stable id (its pid, or for
 * a child inside its parent's process the start of its session id). Only the parent can guess more (adr/0025).
 */
function shownPathOf(parent: ParentResolution, label: string, sessionId: string): readonly string[] {
	if (parent.kind === "root") return [label];
	const inProcess = parent.kind === "child" && parent.parent.location === "same-process";
	const own = shownHop(claimedHop(label), stableId({ inProcess, pid: process.pid, sessionId }));
	if (parent.kind === "orphan") return [own];
	const { shown, path } = parent.parent;
	return [...shownOrClaimed(path, shown).map(safeShownLabel), own];
}

function inside(root: string, path: string): boolean {
	const rel = relative(root, path);
	return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
