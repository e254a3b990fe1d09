/**
 * The calls this session's gate blocked, counted for the one line a run without a UI leaves on stderr when it
 * ends: print and JSON mode show blocked calls only to the model, so without the line a person sees an exit code
 * of 0 and never learns that asks were parked for them.
 */
import type { GateOutcome } from "./gate-outcome.ts";

export class BlockedCalls {
	private parked = 0;
	private refused = 0;

	count(outcome: GateOutcome["outcome"]): void {
		if (outcome === "pending") this.parked++;
		else if (outcome === "deny") this.refused++;
	}

	/** With `--permission-exit-status`: 4 when a call was refused, else 3 when one was parked, else 0. */
	exitStatus(): 0 | 3 | 4 {
		return this.refused > 0 ? 4 : this.parked > 0 ? 3 : 0;
	}

	/** `pi-permission-hub: blocked 3 calls in this run: …`, naming the commands that show them; null when none. */
	summary(sessionId: string): string | null {
		const total = this.parked + this.refused;
		if (total === 0) return null;
		const parts: string[] = [];
		if (this.parked > 0)
			parts.push(`${this.parked} parked for approval (pi-permission-hub pending --session ${sessionId})`);
		if (this.refused > 0) parts.push(`${this.refused} refused (pi-permission-hub explain ${sessionId})`);
		return `pi-permission-hub: blocked ${total === 1 ? "1 call" : `${total} calls`} in this run: ${parts.join(", ")}`;
	}
}
