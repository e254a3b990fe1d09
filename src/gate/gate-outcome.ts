import type { ChainStep } from "../audit/audit-entry.ts";
import type { ClassifiedAction } from "../classify/action.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { Mode } from "../vocabulary/tier.ts";

/** The gate's answer for one call, with everything the audit line and the decision event need. */
export interface GateOutcome {
	readonly outcome: "allow" | "deny" | "pending";
	/** What the policy step said before any chain or dialog (`deny` for a gate error). */
	readonly mode: Mode;
	readonly source: DecisionSource;
	/** Null when the call could not even be classified (a gate error). */
	readonly action: ClassifiedAction | null;
	/** For a blocked call: the text the model receives. For an allowed one: a short account. */
	readonly reason: string;
	readonly chain: readonly ChainStep[];
	/** The parked request, for `pending`. */
	readonly requestId?: string;
	/** For a call that asked: why the policy asked, naming the part that asked (kept in the audit line). */
	readonly why?: string;
}
