import type { AuditEntry } from "../audit/audit-entry.ts";
import { AUDIT_SCHEMA_VERSION } from "../audit/audit-entry.ts";
import type { AuditWriter } from "../audit/audit-writer.ts";
import type { Origin } from "../origin/origin.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { HIGHEST_TIER } from "../vocabulary/tier.ts";
import { type DecisionEvent, publishDecision } from "./decision-events.ts";
import type { GateOutcome } from "./pipeline.ts";

export interface DecisionRecord {
	readonly outcome: GateOutcome;
	readonly event: DecisionEvent["event"];
	readonly sessionId: string;
	readonly origin: Origin;
	readonly tool: string;
	/** For a forwarded ask: the child session that asked. */
	readonly requesterSessionId?: string;
	/** Used when the action could not be classified. */
	readonly fallbackPreview: string;
	readonly latencyMs: number;
	readonly policy: EffectivePolicy | null;
}

export interface DecisionSinks {
	readonly audit: AuditWriter;
	readonly emit: (event: DecisionEvent) => void;
}

/** The one place a decision is written to the audit log and broadcast: each decision passes here once. */
export function recordDecision(record: DecisionRecord, sinks: DecisionSinks): Promise<void> {
	const { outcome, policy } = record;
	const action = outcome.action;
	const time = new Date().toISOString();
	const tier = action?.tier ?? HIGHEST_TIER;
	const preview = action?.preview ?? record.fallbackPreview;
	const actionHash = action?.hash ?? "";
	const ceiling = policy?.grantCeiling.reason
		? { tier: policy.grantCeiling.tier, reason: policy.grantCeiling.reason }
		: undefined;
	// What the broadcast and the audit line share; the audit line adds what an operator needs afterwards.
	const event: DecisionEvent = {
		version: 1,
		time,
		sessionId: record.sessionId,
		event: record.event,
		tool: record.tool,
		tier,
		actionHash,
		preview,
		mode: outcome.mode,
		outcome: outcome.outcome,
		source: outcome.source,
		origin: record.origin,
		...(outcome.requestId ? { requestId: outcome.requestId } : {}),
	};
	const { version: _version, ...shared } = event;
	const entry: AuditEntry = {
		v: AUDIT_SCHEMA_VERSION,
		...shared,
		...(outcome.outcome === "allow" ? {} : { reason: outcome.reason }),
		...(outcome.why === undefined ? {} : { why: outcome.why }),
		...(record.requesterSessionId ? { requesterSessionId: record.requesterSessionId } : {}),
		latencyMs: Math.round(record.latencyMs * 1000) / 1000,
		configFiles: policy
			? policy.sources.filter((s) => s.state === "loaded" || s.state === "invalid").map((s) => s.file)
			: [],
		...(outcome.chain.length > 0 ? { chain: [...outcome.chain] } : {}),
		...(ceiling ? { ceiling } : {}),
	};
	publishDecision(event);
	sinks.emit(event);
	return sinks.audit.record(entry);
}
