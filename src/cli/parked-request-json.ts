import type { ParkedAnswer } from "../hub/parked-store.ts";
import type { ForwardRequest } from "../hub/protocol.ts";

/** A parked request as the JSON output shows it (snake_case, times in ISO 8601 and seconds from now). */
export function parkedRequestJson(request: ForwardRequest, now: number): Record<string, unknown> {
	return {
		id: request.id,
		tool: request.tool,
		tier: request.tier,
		preview: request.preview,
		cwd: request.cwd,
		why: request.why,
		action_hash: request.actionHash,
		path: request.path,
		requester: request.chain[0] ?? null,
		chain: request.chain,
		created_at: request.createdAt,
		expires_at: request.expiresAt,
		age_seconds: Math.max(0, Math.floor((now - Date.parse(request.createdAt)) / 1000)),
		expires_in_seconds: Math.max(0, Math.floor((Date.parse(request.expiresAt) - now) / 1000)),
	};
}

export function parkedAnswerJson(answer: ParkedAnswer): Record<string, unknown> {
	return {
		decision: answer.decision,
		via: answer.via,
		answered_at: answer.answeredAt,
		responder_session_id: answer.responderSessionId,
		...(answer.reason === undefined ? {} : { reason: answer.reason }),
	};
}

/** `root ← planner ← worker`: who asked, through whom (root first, as in the dialogs). */
export function requesterPath(request: ForwardRequest): string {
	return request.path.join(" ← ");
}
