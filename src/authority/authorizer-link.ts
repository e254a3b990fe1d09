import type { ActionPart } from "../classify/action.ts";
import type { Origin } from "../origin/origin.ts";
import type { Mode, Tier } from "../vocabulary/tier.ts";

/** What a link may answer. `defer` passes the ask on to the next link, and finally to the terminal authorizer. */
export type LinkVerdict =
	| { readonly verdict: "allow"; readonly reason?: string }
	| { readonly verdict: "deny"; readonly reason?: string }
	| { readonly verdict: "defer"; readonly reason?: string };

/** A read-only view of the policy a link may consult (never acts, never records). */
export interface PolicyQuery {
	decide(call: {
		tool: string;
		input: Readonly<Record<string, unknown>>;
		cwd?: string;
	}): Promise<QueryResult>;
}

export interface QueryResult {
	readonly mode: Mode;
	readonly tier: Tier;
	readonly actionHash: string;
	/** Readable account of the rule, grant or tier default that produced `mode`. */
	readonly basis: string;
}

/** Everything a link learns about one ask. */
export interface AuthorizerRequest {
	readonly tool: string;
	readonly input: Readonly<Record<string, unknown>>;
	readonly cwd: string;
	readonly tier: Tier;
	readonly parts: readonly ActionPart[];
	readonly actionHash: string;
	readonly preview: string;
	readonly origin: Origin;
	/** The session deciding (for a forwarded ask: the serving parent, not the child). */
	readonly sessionId: string;
	/** Why the policy asks, in words. */
	readonly why: string;
	/** True when this ask came from a subagent through the hub. */
	readonly forwarded: boolean;
	/** Aborted when the link's time is up; a link doing I/O should honour it. */
	readonly signal: AbortSignal;
	readonly policy: PolicyQuery;
}

export type AuthorizerLink = (request: AuthorizerRequest) => LinkVerdict | Promise<LinkVerdict>;
