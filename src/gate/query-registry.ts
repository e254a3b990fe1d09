import type { PolicyQuery, QueryResult } from "../authority/authorizer-link.ts";
import { processWide } from "../process-wide.ts";

/**
 * Live sessions publish their read-only policy query here so another extension can ask "what would happen?"
 * without a handle on the session. Keyed by session id; the newest session answers when none is named.
 */
function table(): Map<string, PolicyQuery> {
	return processWide<Map<string, PolicyQuery>>("policy-queries.v1", () => new Map());
}

export function publishPolicyQuery(sessionId: string, query: PolicyQuery): () => void {
	table().delete(sessionId);
	table().set(sessionId, query);
	return () => {
		if (table().get(sessionId) === query) table().delete(sessionId);
	};
}

export interface QueryCall {
	readonly tool: string;
	readonly input: Readonly<Record<string, unknown>>;
	readonly cwd?: string;
	/** Which session's policy to ask; the most recently started session when omitted. */
	readonly sessionId?: string;
}

/**
 * What the policy would decide for this call: mode, tier, action hash and the basis, without asking anyone,
 * recording anything or using up an approval. Rejects when no gated session is running in this process.
 */
export async function queryDecision(call: QueryCall): Promise<QueryResult> {
	const queries = table();
	const query = call.sessionId ? queries.get(call.sessionId) : [...queries.values()].at(-1);
	if (!query) throw new Error("pi-permission-hub: no gated session is running in this process");
	return query.decide({ tool: call.tool, input: call.input, ...(call.cwd ? { cwd: call.cwd } : {}) });
}
