import { type ForwardRequest, newRequestId, PROTOCOL } from "../hub/protocol.ts";
import type { Origin } from "../origin/origin.ts";
import type { AskCommon } from "./terminal-authorizer.ts";

/** Who this session is in the tree, for the requests it sends up. */
export interface ForwardingIdentity {
	readonly sessionId: string;
	/** Agent labels from the root down to this session (the last one is this session's). */
	readonly path: readonly string[];
}

/** A request for one of this session's own asks. */
export function buildForwardRequest(ask: AskCommon, identity: ForwardingIdentity): ForwardRequest {
	const now = Date.now();
	const { action } = ask;
	const lifetime = ask.unanswered === "defer" ? ask.deferExpiryMs : ask.timeoutMs;
	return {
		protocol: PROTOCOL,
		id: newRequestId(now),
		actionHash: action.hash,
		tool: action.tool,
		input: { ...action.input },
		cwd: action.cwd,
		tier: action.tier,
		asking: ask.askingParts.slice(0, 64).map(({ part, tier }) => ({
			tier,
			why: cap(part.tierReason, 2000),
			...(part.command ? { command: cap(part.command.text, 8192) } : {}),
			...(part.paths.length > 0
				? { paths: part.paths.slice(0, 64).map((t) => ({ access: t.access, path: cap(t.absolute, 4096) })) }
				: {}),
		})),
		why: cap(ask.why, 4000),
		preview: cap(action.preview, 8192),
		chain: [{ agent: identity.path.at(-1) ?? "subagent", sessionId: identity.sessionId }],
		path: [...identity.path],
		requesterPid: process.pid,
		origin: ask.origin,
		createdAt: new Date(now).toISOString(),
		expiresAt: new Date(now + lifetime).toISOString(),
		suggestions: ask.suggestions.map((s) => ({ surface: s.surface, pattern: s.pattern, limit: s.limit })),
		grantable: ask.suggestions.length > 0,
		humanOnly: ask.humanOnly,
		unanswered: ask.unanswered,
	};
}

/**
 * Display fields are cut to the protocol's limits (a long heredoc must not make the request unreadable at
 * the parent); the canonical input is never cut: the parent's deny rules must see the whole action.
 */
function cap(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The same ask, passed one hop further up by a relay: a new id (the relay is the one waiting now), the same
 * action and asker, and the relay added to the chain. The origin is the relay's view of the asker (a subagent
 * below it), never what the asker claimed about itself. Human-only when the asker or the relay says so.
 */
export function relayForwardRequest(
	original: ForwardRequest,
	identity: ForwardingIdentity,
	origin: Origin,
	humanOnly: boolean,
): ForwardRequest {
	return {
		...original,
		origin,
		humanOnly: original.humanOnly === true || humanOnly,
		id: newRequestId(),
		chain: [...original.chain, { agent: identity.path.at(-1) ?? "subagent", sessionId: identity.sessionId }],
		requesterPid: process.pid,
	};
}
