/**
 * What the pipeline (adr/0002) is asked and what it answers: the kind of ask is data, and one `GateOutcome`
 * carries everything the audit line, the decision event and a child's answer need.
 */
import type { ChainStep } from "../audit/audit-entry.ts";
import type { Reoffer, TerminalDecision } from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction, ToolCall } from "../classify/action.ts";
import type { ServedAsk } from "../hub/transport.ts";
import type { Origin } from "../origin/origin.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { DecisionMode } from "../vocabulary/tier.ts";
import type { ParkedAnswerRecord } from "./parked-answer-record.ts";

/** What the gate is asked to decide: the kind of ask is data, and the pipeline's steps read it. */
export type GateRequest =
	| { readonly kind: "tool_call"; readonly call: ToolCall; readonly signal?: AbortSignal }
	| { readonly kind: "user_bash"; readonly command: string; readonly cwd: string }
	| ForwardedGateRequest;

/** An ask a child forwarded (adr/0006), as the pipeline is asked to decide it. */
export interface ForwardedGateRequest {
	readonly kind: "forwarded";
	readonly served: ServedAsk;
	readonly reoffered?: Reoffer;
	/** How this session shows the request's hops (adr/0025); the claimed names when absent. */
	readonly shown?: readonly string[] | null;
	/**
	 * For a parked ask (`defer`): where its answer is stored. A human's answer is stored before its grants or
	 * saved rules take effect; one the store refuses takes no effect at all.
	 */
	readonly record?: ParkedAnswerRecord;
}

/** The gate's answer for one ask, with everything the audit line, the decision event and a child's answer need. */
export interface GateOutcome {
	readonly outcome: "allow" | "deny" | "pending";
	/** What the policy step said before any chain or dialog (`deny` for a gate error). */
	readonly mode: DecisionMode;
	/** Who or what decided: a rule, grant or mode (the policy step), a link, the terminal, or a gate error. */
	readonly source: DecisionSource;
	/** Null when the call could not even be classified (a gate error, a forwarded request that lies). */
	readonly action: ClassifiedAction | null;
	/** For a blocked call: the text the model receives. For an allowed one: a short account. */
	readonly reason: string;
	readonly chain: readonly ChainStep[];
	/** The parked request, for `pending`. */
	readonly requestId?: string;
	/** For a call that asked: why the policy asked, naming the part that asked (kept in the audit line). */
	readonly why?: string;
	/** What the terminal authorizer answered, when it decided (its scope and grants go back to a child). */
	readonly terminal?: TerminalDecision;
}

/** One decided ask: its outcome, who asked, and the policy it was decided under (null if none could be read). */
export interface Decided {
	readonly outcome: GateOutcome;
	readonly origin: Origin;
	readonly policy: EffectivePolicy | null;
}
