import type { Parker } from "./local-dialog-authorizer.ts";
import type { Ask, TerminalAuthorizer, TerminalDecision } from "./terminal-authorizer.ts";

/** No UI and no parent: nobody can be asked. Park the ask when the policy is `defer`, else refuse it. */
export class DenyingAuthorizer implements TerminalAuthorizer {
	readonly kind = "denying";
	private readonly park: Parker | null;
	private readonly why: string;

	constructor(why: string, park: Parker | null) {
		this.why = why;
		this.park = park;
	}

	async decide(ask: Ask): Promise<TerminalDecision> {
		if (ask.unanswered === "defer" && this.park) return this.park(ask);
		return { outcome: "deny", source: { kind: "unavailable", reason: this.why } };
	}
}
