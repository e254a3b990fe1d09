/**
 * How this session shows the children it serves (adr/0025). A child's own request says what it calls itself; a
 * child without an agent name is shown as the agent this session's own delegation call started (a guess, matched
 * by process ancestry, timing and the arguments it announced), else by its stable id. Hops further down are shown as the
 * relaying child saw them: it named its own children the same way.
 */
import type { ChildAnnouncement } from "../hub/child-announcement.ts";
import { descendsFrom } from "../hub/process-lineage.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import { type DelegationRun, guessDelegatedAgent } from "../launchers/delegated-child.ts";
import type { DelegatedTask } from "../launchers/known-launcher.ts";
import {
	claimedHop,
	type HopName,
	safeShownLabel,
	shownHop,
	shownOrClaimed,
	stableId,
} from "../origin/shown-name.ts";

export interface ChildNamesOptions {
	/** This process. */
	readonly pid: number;
	/** How this session itself is shown, root first. */
	readonly ownShown: readonly string[];
	/** Every child that announced itself to this session, running or ended. */
	readonly announced: () => readonly ChildAnnouncement[];
}

/** Finished calls kept: a child's ask may arrive just as its call's result does. */
const KEPT_RUNS = 16;

export class ChildNames {
	private readonly options: ChildNamesOptions;
	private readonly runs = new Map<
		string,
		{ startedAt: number; endedAt: number | null; tasks: readonly DelegatedTask[] }
	>();
	/** A child's label once worked out: ancestry and start do not change, and the dialog must not rename it. */
	private readonly known = new Map<string, string>();

	constructor(options: ChildNamesOptions) {
		this.options = options;
	}

	/** A foreground delegation this session let through; `startedAt` is before any child it starts exists. */
	delegationStarted(toolCallId: string, tasks: readonly DelegatedTask[], startedAt: number): void {
		if (tasks.length === 0) return;
		this.runs.set(toolCallId, { startedAt, endedAt: null, tasks });
		const finished = [...this.runs].filter(([, run]) => run.endedAt !== null);
		for (const [id] of finished.slice(0, Math.max(0, finished.length - KEPT_RUNS))) this.runs.delete(id);
	}

	delegationFinished(toolCallId: string, at: number): void {
		const run = this.runs.get(toolCallId);
		if (run && run.endedAt === null) run.endedAt = at;
	}

	/** How an announced child is shown: this session's own labels, then the child's hop. */
	labelOf(child: ChildAnnouncement): readonly string[] {
		return [...this.options.ownShown, this.hopOf(child, child.path.at(-1) ?? "")];
	}

	/**
	 * The labels of a forwarded request's path, as this session shows them; null when the request's chain does not
	 * fit its path (the claimed names are shown then).
	 */
	shownFor(request: ForwardRequest): readonly string[] | null {
		const { path, chain } = request;
		const direct = path.length - chain.length;
		const sender = chain.at(-1);
		if (direct < 1 || sender === undefined) return null;
		const { ownShown } = this.options;
		const above = ownShown.length === direct ? ownShown : path.slice(0, direct);
		// A child's label never changes once worked out, so the announcements (files) are read until then only.
		const hop =
			this.known.get(sender.sessionId) ?? this.firstHop(request, sender.sessionId, path[direct] ?? "");
		const relayed = request.origin?.kind === "subagent" ? request.origin.shown : undefined;
		const below = shownOrClaimed(path, relayed);
		return [...above, hop, ...below.slice(direct + 1)].map(safeShownLabel);
	}

	/** The direct child's label until known: from its announcement, else its claimed name and an id. */
	private firstHop(request: ForwardRequest, sessionId: string, claimed: string): string {
		const child = this.options.announced().find((c) => c.sessionId === sessionId);
		if (child) return this.hopOf(child, claimed);
		// Unannounced: the requester's pid is the child's own only when the child itself asks, not when it relays.
		const asking = request.chain.length === 1;
		// Not kept: its announcement may still be on its way, and names it once it is read.
		return shownHop(claimedHop(claimed), asking ? `#${request.requesterPid}` : sessionId.slice(0, 8));
	}

	private hopOf(child: ChildAnnouncement, claimed: string): string {
		const cached = this.known.get(child.sessionId);
		if (cached !== undefined) return cached;
		const label = shownHop(this.nameOf(child, claimed), stableId(child));
		this.known.set(child.sessionId, label);
		return label;
	}

	private nameOf(child: ChildAnnouncement, claimed: string): HopName {
		const name = claimedHop(claimed);
		if (name.kind !== "unnamed") return name;
		const { pid } = this.options;
		const guess = guessDelegatedAgent(
			{
				startedAt: Date.parse(child.startedAt),
				descendant: child.inProcess || descendsFrom(child.pid, pid),
				argDigests: child.argDigests ?? null,
			},
			[...this.runs.values()] satisfies readonly DelegationRun[],
		);
		return guess ? { kind: "guessed", agent: guess.agent, shared: guess.shared } : name;
	}
}
