import type { ClassifiedAction } from "../classify/action.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import type { Origin } from "../origin/origin.ts";
import type { SessionGrant } from "../policy/grant-coverage.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { AskingPart, SuggestedGrant } from "./suggest-grant.ts";

export type UnansweredPolicy = "wait" | "defer" | "deny";

/** What every ask that reached the end of the chain carries: someone (or nobody) must now decide. */
export interface AskCommon {
	readonly action: ClassifiedAction;
	/** Who is asking (for a forwarded ask: the child that asked, not this session). */
	readonly origin: Origin;
	readonly sessionId: string;
	/** Why the policy asks, in words. */
	readonly why: string;
	/**
	 * Only a human may answer (a guarded path, an agents section, an ungated delegation, a missing sandbox): a
	 * request forwarded up says so, so no hop above lets a link or grant answer it.
	 */
	readonly humanOnly: boolean;
	/** The parts that asked, with their tiers (what a forwarded request carries up). */
	readonly askingParts: readonly AskingPart[];
	/** Patterns the human may grant for the session; empty when an explicit ask rule forbids it. */
	readonly suggestions: readonly SuggestedGrant[];
	/** Whether the human may save those patterns as rules (adr/0018): never above the grant ceiling, never for a guarded path or a privileged part. */
	readonly savable: { readonly allow: boolean; readonly deny: boolean };
	readonly unanswered: UnansweredPolicy;
	/** How long `wait` waits for an answer. */
	readonly timeoutMs: number;
	/** How long a parked request stays answerable. */
	readonly deferExpiryMs: number;
	/** Aborted when the call is cancelled (Esc, the child died): the dialog is withdrawn. */
	readonly signal?: AbortSignal;
	/**
	 * Set when this session is a subagent asking its own human because its parent cannot be asked: why. The
	 * dialog says so, and so does the DecisionSource of the answer (adr/0027).
	 */
	readonly parentUnreachable?: string;
	/**
	 * For a delegation whose children would run ungated: the settings file a fix may change so that they run
	 * gated, offered as "Add the gate to <file> and continue". Absent when no program can make the fix.
	 */
	readonly fixAndContinue?: { readonly file: string };
}

/** This session's own ask (its model's call). */
export interface OwnAsk extends AskCommon {
	readonly kind: "own";
}

/** A request parked in an earlier run and offered again: stopping its review stops the ones still waiting. */
export interface Reoffer {
	readonly stopReview: () => void;
}

/** What only an ask a child forwarded carries. */
export interface ForwardedOnly {
	readonly kind: "forwarded";
	/** The request as it arrived. */
	readonly request: ForwardRequest;
	/** Set for a request parked in an earlier run: Esc, "later" and a timeout leave it parked. */
	readonly reoffered?: Reoffer;
	/** Checked while the ask waits for its dialog: a whole-tree grant given meanwhile may already settle it. */
	readonly settledElsewhere: () => TerminalDecision | null;
	/**
	 * Called with a human's answer that carries grants, while the dialog still holds its turn in the queue: the
	 * next queued ask checks `settledElsewhere` only once they are in place. A parked ask's answer makes them only
	 * once the parked store took it.
	 */
	readonly keepGrants: (decision: Extract<TerminalDecision, { outcome: "allow" }>) => void;
}

/** An ask a child forwarded, decided here. */
export interface ForwardedAsk extends AskCommon, ForwardedOnly {}

export type Ask = OwnAsk | ForwardedAsk;

/**
 * What a terminal authorizer returns. There is deliberately no "defer": the terminal step is where passing
 * the decision on stops, so the type has no way to express it. `parked` is a decision too — the call is
 * blocked now, and a later approval lets the identical action through.
 */
export type TerminalDecision =
	| {
			readonly outcome: "allow";
			readonly source: DecisionSource;
			/** How far the answer reaches: this call, this session, the asking subagent, or the whole tree. */
			readonly scope: "once" | "session" | "subagent" | "tree";
			/** Grants that come with the answer, each carrying its scope. */
			readonly grants: readonly SessionGrant[];
			readonly save?: RulesToSave;
			/** The human chose "Add the gate … and continue": allowed only once the fix is written and holds. */
			readonly fix?: true;
	  }
	| {
			readonly outcome: "deny";
			readonly source: DecisionSource;
			readonly userReason?: string;
			readonly save?: RulesToSave;
	  }
	| { readonly outcome: "parked"; readonly source: DecisionSource; readonly requestId: string };

/** Where a saved rule applies: the asking call's directory and below, or every session. */
export type SaveWhere = "project" | "everywhere";

/** Rules a human asked to save with their answer: the ask's suggested patterns, as allow or deny rules. */
export interface RulesToSave {
	readonly verdict: "allow" | "deny";
	readonly where: SaveWhere;
	readonly suggestions: readonly SuggestedGrant[];
}

export type TerminalKind = "local-dialog" | "parent-forwarding" | "parent-then-local" | "nobody";

export interface TerminalAuthorizer {
	readonly kind: TerminalKind;
	decide(ask: Ask): Promise<TerminalDecision>;
}
