import { processWide } from "../process-wide.ts";

/**
 * Which copy of the extension gates each session of this process. pi runs every installed copy (two packages,
 * a package plus `-e`, two versions) and each copy's handlers see every call of the session; if each gated, a
 * human would be asked the same question once per copy. The first copy to start a session claims it and gates
 * it; the others stay passive. The table is process-wide (a `Symbol.for` slot), so separately loaded copies share it.
 */
/** A copy of the extension, by identity, able to say whether pi still runs it. */
export interface GateCopy {
	/** False once pi has replaced or unloaded this copy's runtime (its API then throws "stale"). */
	alive(): boolean;
}

function owners(): Map<string, GateCopy> {
	return processWide<Map<string, GateCopy>>("session-owners.v1", () => new Map());
}

/** True when `copy` now gates `sessionId` (it claimed it, or already had); false when another copy does. */
export function claimSession(sessionId: string, copy: GateCopy): boolean {
	const table = owners();
	const owner = table.get(sessionId);
	// An owner pi no longer runs (unloaded without a shutdown) must not leave the session ungated.
	if (owner !== undefined && owner !== copy && owner.alive()) return false;
	table.set(sessionId, copy);
	return true;
}

/** True while some copy other than `copy` gates `sessionId` and pi still runs it. */
export function gatedByAnother(sessionId: string, copy: GateCopy): boolean {
	const owner = owners().get(sessionId);
	return owner !== undefined && owner !== copy && owner.alive();
}

/** The owner lets go when its session shuts down; a passive copy's release changes nothing. */
export function releaseSession(sessionId: string, copy: GateCopy): void {
	const table = owners();
	if (table.get(sessionId) === copy) table.delete(sessionId);
}
