import type { Origin } from "../origin/origin.ts";
import { processWide } from "../process-wide.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { Mode, Tier } from "../vocabulary/tier.ts";

export const DECISION_EVENT_CHANNEL = "pi-permission-hub:decision";

/** Broadcast once per decision, after it is made (observers cannot change it). */
export interface DecisionEvent {
	readonly version: 1;
	readonly time: string;
	readonly sessionId: string;
	readonly event: "tool_call" | "user_bash" | "forwarded_ask";
	readonly tool: string;
	readonly tier: Tier;
	readonly actionHash: string;
	readonly preview: string;
	readonly mode: Mode;
	readonly outcome: "allow" | "deny" | "pending";
	readonly source: DecisionSource;
	readonly origin: Origin;
	readonly requestId?: string;
}

export type DecisionListener = (event: DecisionEvent) => void;

function listeners(): Set<DecisionListener> {
	return processWide<Set<DecisionListener>>("decision-listeners.v1", () => new Set());
}

/** Subscribe to every decision made in this process (all sessions). Returns the unsubscribe function. */
export function onDecision(listener: DecisionListener): () => void {
	listeners().add(listener);
	return () => listeners().delete(listener);
}

/** Deliver to process-wide listeners; a throwing listener is isolated from the gate and from the others. */
export function publishDecision(event: DecisionEvent): void {
	for (const listener of listeners()) {
		try {
			listener(event);
		} catch {
			// An observer's bug must not change or delay a decision that is already made.
		}
	}
}
