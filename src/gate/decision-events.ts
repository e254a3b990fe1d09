import { AUDIT_SCHEMA_VERSION, type AuditEntry, type SandboxRecord } from "../audit/audit-entry.ts";
import type { AuditWriter } from "../audit/audit-writer.ts";
import type { Origin } from "../origin/origin.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { processWideListeners } from "../process-wide.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { ParkedAnswerRefusal } from "../vocabulary/parked-answer-refusal.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { type DecisionMode, HIGHEST_TIER, type Tier } from "../vocabulary/tier.ts";
import type { GateOutcome } from "./gate-outcome.ts";

export const DECISION_EVENT_CHANNEL = "pi-permission-hub:decision";

/** Broadcast once per decision, after it is made (observers cannot change it). */
export interface DecisionEvent {
	readonly version: 1;
	readonly time: string;
	readonly sessionId: string;
	readonly event: "tool_call" | "user_bash" | "forwarded_ask";
	readonly tool: string;
	readonly tier: Tier;
	readonly actionHash: string;
	readonly preview: string;
	readonly mode: DecisionMode;
	readonly outcome: "allow" | "deny" | "pending";
	readonly source: DecisionSource;
	readonly origin: Origin;
	readonly requestId?: string;
}

export type DecisionListener = (event: DecisionEvent) => void;

const decisionListeners = processWideListeners<DecisionEvent>("decision-listeners.v1");

/** Subscribe to every decision made in this process (all sessions). Returns the unsubscribe function. */
export const onDecision = (listener: DecisionListener): (() => void) => decisionListeners.on(listener);

/** Deliver to process-wide listeners; a throwing listener is isolated from the gate and from the others. */
export const publishDecision = (event: DecisionEvent): void => decisionListeners.publish(event);

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
	/** How an allowed bash call runs, when the sandbox is on. */
	readonly sandbox?: SandboxRecord;
	/** For an allowed read, write or edit the gate's tool runs: the real path of the file it opens (adr/0014). */
	readonly file?: string;
	/** The permission mode of the session that decided (adr/0023). */
	readonly permissionMode: PermissionMode;
	/** For a parked ask: why the parked store refused the answer this session gave (it counted for nothing). */
	readonly answerRefused?: ParkedAnswerRefusal;
}

export interface DecisionSinks {
	readonly audit: AuditWriter;
	readonly emit: (event: DecisionEvent) => void;
}

/**
 * The one place a decision is written to the audit log and broadcast: each decision passes here once. `now`:
 * the line is on disk before this returns (a call that runs only once its line is written, adr/0005), or this
 * throws the writer's `AppendError` and broadcasts nothing — the caller blocks the call and records that
 * instead. `queued`: written on the next tick; a failure reaches the writer's `onFailure`.
 */
export function recordDecision(record: DecisionRecord, sinks: DecisionSinks, when: "now" | "queued"): void {
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
		...(record.sandbox ? { sandbox: record.sandbox } : {}),
		...(record.file ? { file: record.file } : {}),
		permissionMode: record.permissionMode,
		...(record.answerRefused ? { answerRefused: record.answerRefused } : {}),
	};
	if (when === "now") sinks.audit.recordNow(entry);
	else void sinks.audit.record(entry);
	publishDecision(event);
	sinks.emit(event);
}
