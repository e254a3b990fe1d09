import { AUDIT_SCHEMA_VERSION, type AuditEntry } from "../audit/audit-entry.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import type { Origin } from "../origin/origin.ts";
import { capSourceText, type DecisionSource } from "../provenance/decision-source.ts";

/** The session id CLI lines carry: no pi session decided, a person at the command line did. */
export const CLI_SESSION_ID = "cli";

export interface CliAnswer {
	readonly request: ForwardRequest;
	readonly verdict: "allow" | "deny";
	readonly reason: string | undefined;
	/** Who asked, as the gate recorded it when it parked the request. */
	readonly origin: Origin | null;
	readonly now: number;
}

/**
 * The audit line for an answer given with `approve` / `deny`: a user decision via the CLI for this one
 * request. Its latency is how long the request waited for the answer.
 */
export function cliAuditEntry(answer: CliAnswer): AuditEntry {
	const { request, verdict, now } = answer;
	const reason = answer.reason === undefined ? undefined : capSourceText(answer.reason);
	const source: DecisionSource = {
		kind: "user",
		via: "cli",
		verdict,
		scope: "once",
		...(reason === undefined ? {} : { reason }),
	};
	return {
		v: AUDIT_SCHEMA_VERSION,
		time: new Date(now).toISOString(),
		sessionId: CLI_SESSION_ID,
		event: "cli",
		origin: answer.origin,
		tool: request.tool,
		tier: request.tier,
		actionHash: request.actionHash,
		preview: request.preview,
		mode: "ask",
		outcome: verdict,
		source,
		...(verdict === "deny" ? { reason: reason ?? "denied with pi-permission-hub deny" } : {}),
		requestId: request.id,
		latencyMs: Math.max(0, now - Date.parse(request.createdAt)),
		configFiles: [],
	};
}
