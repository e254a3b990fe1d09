import type { SessionGrant } from "../policy/grant-coverage.ts";
import { processWide } from "../process-wide.ts";

/**
 * Grants a human gave at a dialog, per session id. Kept process-wide so a `/reload` (which re-runs the
 * extension factory) keeps them; cleared when the session is replaced (`/new`, `/resume`, `/fork`).
 */
function table(): Map<string, SessionGrant[]> {
	return processWide<Map<string, SessionGrant[]>>("session-grants.v1", () => new Map());
}

export class SessionGrants {
	readonly sessionId: string;

	constructor(sessionId: string) {
		this.sessionId = sessionId;
	}

	list(): readonly SessionGrant[] {
		return table().get(this.sessionId) ?? [];
	}

	/** Adding a grant that is already held (the same id) changes nothing. */
	add(grants: readonly SessionGrant[]): void {
		const held = new Set(this.list().map((g) => g.id));
		const fresh = grants.filter((g) => !held.has(g.id));
		if (fresh.length === 0) return;
		table().set(this.sessionId, [...this.list(), ...fresh]);
	}

	revoke(id: string): boolean {
		const before = this.list();
		const after = before.filter((g) => g.id !== id);
		table().set(this.sessionId, after);
		return after.length !== before.length;
	}

	clear(): void {
		table().delete(this.sessionId);
	}
}
