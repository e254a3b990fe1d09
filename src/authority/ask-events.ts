/**
 * "You are being asked": one event when a permission dialog is put in front of the human, one when it goes away,
 * for status bars and terminal multiplexers that show a waiting ask (adr/0020). Only a dialog actually shown
 * counts: an ask still waiting its turn in the queue, or settled before its turn, opens nothing.
 */
import type { Origin } from "../origin/origin.ts";
import { processWideListeners } from "../process-wide.ts";
import type { Tier } from "../vocabulary/tier.ts";
import type { DialogResult } from "./dialog-presenter.ts";
import type { QueuePosition } from "./dialog-queue.ts";
import type { Ask } from "./terminal-authorizer.ts";

export const ASK_OPENED_CHANNEL = "pi-permission-hub:ask-opened";
export const ASK_CLOSED_CHANNEL = "pi-permission-hub:ask-closed";

/** What both events say about the ask whose dialog opened or closed. */
export interface AskEventBase {
	readonly version: 1;
	/** Pairs an `opened` with its `closed`; new for every dialog. */
	readonly askId: string;
	readonly time: string;
	/** The session whose human is asked (for a forwarded ask: the root showing it, not the child that asked). */
	readonly sessionId: string;
	/**
	 * `own`: this session's call; `forwarded`: a subagent's, shown here; `parked`: parked in an earlier run and
	 * offered again.
	 */
	readonly kind: "own" | "forwarded" | "parked";
	/** Who asks: the subagent for a forwarded ask (`path` from the root down). */
	readonly origin: Origin;
	readonly tool: string;
	readonly tier: Tier;
	readonly actionHash: string;
	/** The redacted preview the dialog shows (`rm -f build.log`). */
	readonly preview: string;
	readonly cwd: string;
	/** A forwarded or parked ask's request id, as in its `DecisionEvent` and audit line. */
	readonly requestId?: string;
}

export interface AskOpenedEvent extends AskEventBase {
	readonly phase: "opened";
	/** Why the policy asks, in words. */
	readonly why: string;
	/** `2 of 5`: its place among the asks since the queue was last empty (the first of a burst is 1). */
	readonly position: QueuePosition;
	/** When the dialog gives up if nobody answers. */
	readonly deadline: string;
}

/**
 * How the dialog went away: `allow` / `deny` the human's answer (an "always" rule included), `dismissed` Esc
 * (a deny, or "later" for a parked ask), `later` a parked ask left parked, `timeout` nobody answered,
 * `withdrawn` the question no longer stood (the call was cancelled, the child died, a grant settled it),
 * `failed` the dialog could not be shown.
 */
export type AskOutcome = "allow" | "deny" | "dismissed" | "later" | "timeout" | "withdrawn" | "failed";

export interface AskClosedEvent extends AskEventBase {
	readonly phase: "closed";
	readonly outcome: AskOutcome;
	readonly durationMs: number;
}

export type AskEvent = AskOpenedEvent | AskClosedEvent;
export type AskListener = (event: AskEvent) => void;
/** Where a dialog's events go: this process's listeners and the session's `pi.events`. */
export type AskEventSink = (event: AskEvent) => void;

const askListeners = processWideListeners<AskEvent>("ask-listeners.v1");

/** Subscribe to every dialog opened and closed in this process (all sessions). Returns the unsubscribe function. */
export const onAsk = (listener: AskListener): (() => void) => askListeners.on(listener);

/** Deliver to process-wide listeners; a throwing listener is isolated from the dialog and from the others. */
export const publishAsk = (event: AskEvent): void => askListeners.publish(event);

/** The two events of one shown dialog, sharing everything but the phase. */
export class DialogEvents {
	private readonly base: Omit<AskEventBase, "time">;
	private readonly openedAt = Date.now();

	constructor(ask: Ask, askId: string) {
		const { action } = ask;
		const requestId = ask.kind === "forwarded" ? ask.request.id : undefined;
		this.base = {
			version: 1,
			askId,
			sessionId: ask.sessionId,
			kind: ask.kind === "own" ? "own" : ask.reoffered ? "parked" : "forwarded",
			origin: ask.origin,
			tool: action.tool,
			tier: action.tier,
			actionHash: action.hash,
			preview: action.preview,
			cwd: action.cwd,
			...(requestId === undefined ? {} : { requestId }),
		};
	}

	opened(ask: Ask, position: QueuePosition): AskOpenedEvent {
		return {
			...this.base,
			time: new Date(this.openedAt).toISOString(),
			phase: "opened",
			why: ask.why,
			position,
			deadline: new Date(this.openedAt + ask.timeoutMs).toISOString(),
		};
	}

	closed(outcome: AskOutcome): AskClosedEvent {
		const now = Date.now();
		return {
			...this.base,
			time: new Date(now).toISOString(),
			phase: "closed",
			outcome,
			durationMs: now - this.openedAt,
		};
	}
}

/** The outcome a dialog's result stands for. */
export function askOutcomeOf(result: DialogResult): AskOutcome {
	if (result.kind !== "answer") return result.kind;
	const { answer } = result;
	switch (answer.kind) {
		case "allow":
		case "fix":
			return "allow";
		case "always":
			return answer.verdict;
		case "deny":
			return "deny";
		case "later":
		case "review":
			return "later";
	}
}
