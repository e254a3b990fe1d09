/**
 * The decisions of one session's own calls, recorded: each written to the audit log and broadcast once
 * (`recordDecision`), the last ones kept for `/permissions`, the blocked ones counted for the line a run without
 * a UI prints at its end. An allowed call's line is written before the call may run; when it cannot be written
 * the call is blocked instead (adr/0005). With the outcomes the session itself decides around the pipeline: an
 * allowed call the audit or the sandbox cannot hold, a call id already waiting to run.
 */
import type { SandboxRecord } from "../audit/audit-entry.ts";
import type { AuditWriter } from "../audit/audit-writer.ts";
import type { Origin } from "../origin/origin.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { capSourceText } from "../provenance/decision-source.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { auditFailedReason, describeCall } from "./block-reason.ts";
import { BlockedCalls } from "./blocked-calls.ts";
import {
	DECISION_EVENT_CHANNEL,
	type DecisionEvent,
	type DecisionRecord,
	type DecisionSinks,
	recordDecision,
} from "./decision-events.ts";
import type { GateOutcome } from "./gate-outcome.ts";
import { duplicateIdReason } from "./sandboxing.ts";

const RECENT_DECISIONS = 20;

export interface SessionDecisionsOptions {
	readonly sessionId: string;
	readonly origin: Origin;
	readonly audit: AuditWriter;
	/** pi's event bus, where other extensions hear each decision. */
	readonly events: { emit(channel: string, data: unknown): void };
	/** The session's permission mode under `policy` (the current one when null), for the audit line. */
	readonly permissionMode: (policy: EffectivePolicy | undefined) => PermissionMode;
}

/** One own call's decision, as the gate made it. */
export interface OwnDecision {
	readonly event: DecisionEvent["event"];
	readonly tool: string;
	/** Used when the action could not be classified. */
	readonly fallbackPreview: string;
	/** `performance.now()` when the call arrived. */
	readonly started: number;
	readonly policy: EffectivePolicy | null;
	readonly sandbox?: SandboxRecord;
	readonly file?: string;
}

export class SessionDecisions {
	/** Where every decision of this session goes, its children's forwarded asks included. */
	readonly sinks: DecisionSinks;
	private readonly last: DecisionEvent[] = [];
	private readonly blocked = new BlockedCalls();
	private readonly options: SessionDecisionsOptions;

	constructor(options: SessionDecisionsOptions) {
		this.options = options;
		this.sinks = {
			audit: options.audit,
			emit: (event) => {
				this.last.push(event);
				if (this.last.length > RECENT_DECISIONS) this.last.shift();
				options.events.emit(DECISION_EVENT_CHANNEL, event);
			},
		};
	}

	/** The last decisions, newest last, for `/permissions`. */
	get recent(): readonly DecisionEvent[] {
		return this.last;
	}

	/**
	 * Record a decision and return the one the caller acts on: `outcome`, or — for an allowed call whose line
	 * could not be written — the block recorded in its place (queued: the same file will likely refuse it too).
	 */
	record(outcome: GateOutcome, own: OwnDecision): GateOutcome {
		const { sessionId, origin } = this.options;
		const decision = (decided: GateOutcome): DecisionRecord => ({
			outcome: decided,
			event: own.event,
			sessionId,
			origin,
			tool: own.tool,
			fallbackPreview: own.fallbackPreview,
			latencyMs: performance.now() - own.started,
			policy: own.policy,
			...(own.sandbox && decided.outcome === "allow" ? { sandbox: own.sandbox } : {}),
			...(own.file && decided.outcome === "allow" ? { file: own.file } : {}),
			permissionMode: this.options.permissionMode(own.policy ?? undefined),
		});
		let recorded = outcome;
		if (outcome.outcome === "allow") {
			try {
				recordDecision(decision(outcome), this.sinks, "now");
			} catch (error) {
				recorded = auditFailedOutcome(outcome, own.tool, errorMessage(error));
				recordDecision(decision(recorded), this.sinks, "queued");
			}
		} else {
			recordDecision(decision(outcome), this.sinks, "queued");
		}
		this.blocked.count(recorded.outcome);
		return recorded;
	}

	/** With `--permission-exit-status`, the status of a run without a UI (blocked-calls.ts). */
	blockedExitStatus(): 0 | 3 | 4 {
		return this.blocked.exitStatus();
	}

	/** The line a run without a UI leaves on stderr, or null when no call was blocked. */
	blockedSummary(): string | null {
		return this.blocked.summary(this.options.sessionId);
	}
}

/** An allowed call whose audit line could not be written: blocked, as a gate error naming the file. */
function auditFailedOutcome(allowed: GateOutcome, tool: string, error: string): GateOutcome {
	return {
		...allowed,
		outcome: "deny",
		source: { kind: "gate_error", reason: capSourceText(`the audit line could not be written: ${error}`) },
		reason: auditFailedReason(describeCall(allowed.action, tool), error),
	};
}

/** A second bash call with the id of one still waiting to run: refused before anything is decided. */
export function duplicateIdOutcome(toolCallId: string): GateOutcome {
	const reason = duplicateIdReason(toolCallId);
	return {
		outcome: "deny",
		mode: "deny",
		source: { kind: "unavailable", reason },
		action: null,
		reason,
		chain: [],
	};
}

/** An allowed call the sandbox cannot hold as decided: blocked, with why (fail closed). */
export function sandboxBlockOutcome(decided: GateOutcome, why: string): GateOutcome {
	return { ...decided, outcome: "deny", source: { kind: "gate_error", reason: why }, reason: why };
}
