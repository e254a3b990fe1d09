import type { AnswerResult, ParkedStore } from "../hub/parked-store.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";

/** An answer to a parked ask, as the parked store keeps it. */
export interface ParkedAnswerGiven {
	readonly decision: "allow" | "deny";
	/** What settled it: a human, a link, a rule or a grant. */
	readonly source: DecisionSource;
	readonly reason?: string;
}

/**
 * The answer to one parked ask (`unanswered: defer`), put into the parked store at most once. The pipeline stores
 * a human's answer before anything of it takes effect (its grants, its saved rules), so an answer the store
 * refuses leaves nothing behind; the served ask's audit line then reads the same result. The first answer given
 * is the one stored: every later call returns its result.
 */
export class ParkedAnswerRecord {
	private readonly parked: ParkedStore;
	private readonly requestId: string;
	private readonly sessionId: string;
	private result: AnswerResult | null = null;

	constructor(parked: ParkedStore, requestId: string, sessionId: string) {
		this.parked = parked;
		this.requestId = requestId;
		this.sessionId = sessionId;
	}

	store(answer: ParkedAnswerGiven): AnswerResult {
		this.result ??= this.parked.answer(
			this.requestId,
			answer.decision,
			answer.source,
			this.sessionId,
			answer.reason,
		);
		return this.result;
	}
}
