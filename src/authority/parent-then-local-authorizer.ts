import type { Ask, TerminalAuthorizer, TerminalDecision } from "./terminal-authorizer.ts";

export interface ParentThenLocalOptions {
	/** Why the parent cannot take an ask now (gone, not serving, never found), or null when it can. */
	readonly unreachable: () => string | null;
	/** Asks the parent (or, with no parent at all, settles the ask as nobody could be asked). */
	readonly forwarding: TerminalAuthorizer;
	/** This subagent's own UI. */
	readonly local: TerminalAuthorizer;
}

/**
 * A subagent with a UI of its own, under `forwardWithUI: parent-then-local` (adr/0027): its asks go to its parent;
 * when the parent cannot take them — gone or not serving before the ask, or gone while it waited — the human at
 * this subagent's own UI is asked instead, within what is left of the ask's timeout, and their answer says so.
 * Only the hub's own finding that the parent is unreachable opens that dialog: an answer, a parked ask or a
 * timeout at a parent that is still there is never overruled here.
 */
export class ParentThenLocalAuthorizer implements TerminalAuthorizer {
	readonly kind = "parent-then-local";
	private readonly options: ParentThenLocalOptions;

	constructor(options: ParentThenLocalOptions) {
		this.options = options;
	}

	async decide(ask: Ask): Promise<TerminalDecision> {
		const { unreachable, forwarding } = this.options;
		// `deny` refuses without asking anyone, here as anywhere.
		if (ask.unanswered === "deny") return forwarding.decide(ask);
		const startedAt = Date.now();
		const before = unreachable();
		if (before !== null) return this.askHere(ask, before, ask.timeoutMs);
		const decision = await forwarding.decide(ask);
		if (decision.outcome !== "deny" || decision.source.kind !== "unavailable" || ask.signal?.aborted)
			return decision;
		const after = unreachable();
		const left = ask.timeoutMs - (Date.now() - startedAt);
		// The ask's timeout covers the parent and this dialog together: a subagent never waits longer than it says.
		if (after === null || left < 1) return decision;
		return this.askHere(ask, after, left);
	}

	private askHere(ask: Ask, why: string, timeoutMs: number): Promise<TerminalDecision> {
		return this.options.local.decide({ ...ask, timeoutMs, parentUnreachable: why });
	}
}
