import type { SessionGrant } from "../policy/session-grant.ts";

/**
 * Grants a human gave at a dialog, per session id. Kept process-wide so a `/reload` (which re-runs the
 * extension factory) keeps them; cleared when the session is replaced (`/new`, `/resume`, `/fork`).
 */
const GRANTS_KEY = Symbol.for("pi-permission-hub.session-grants.v1");

function table(): Map<string, SessionGrant[]> {
	const slot = globalThis as { [GRANTS_KEY]?: Map<string, SessionGrant[]> };
	slot[GRANTS_KEY] ??= new Map();
	return slot[GRANTS_KEY];
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
