/**
 * The seam between the gate and how asks travel (adr/0016): a child hands a request to its parent and waits for
 * the answer, or hands it over without waiting (a parked ask); a parent serves its children's requests. Today
 * one transport exists, files in a private inbox (`hub-client.ts`, `hub-server.ts`), chosen in `session-hub.ts`;
 * a shared-volume or broker transport implements this interface and must keep what the file transport
 * guarantees: the first answer is the only answer, an answer is obeyed only for the action hash it names, and
 * a dead peer is noticed within 2 s.
 */
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { HubLog } from "./hub-log.ts";
import type { ForwardRequest, ForwardResponse } from "./protocol.ts";
import type { ParentTarget } from "./resolve-parent.ts";

export type ForwardOutcome =
	/** An answer we may obey: well-formed, about this request and this action, with a readable DecisionSource. */
	| { readonly kind: "answered"; readonly response: ForwardResponse; readonly source: DecisionSource }
	/** Nobody could answer: the parent is gone, not serving, unreachable, or the wait ended. */
	| { readonly kind: "unavailable"; readonly reason: string };

export interface ForwardOptions {
	readonly timeoutMs: number;
	readonly signal?: AbortSignal;
	readonly log: HubLog;
}

export interface ServerAnswer {
	readonly decision: "allow" | "deny" | "parked";
	readonly scope: "once" | "subagent" | "tree";
	readonly grants: ForwardResponse["grants"];
	readonly reason?: string;
	readonly source: DecisionSource;
}

export interface ServedAsk {
	readonly request: ForwardRequest;
	/** Aborted when the asking child cancels, dies or the server closes: the dialog is withdrawn. */
	readonly signal: AbortSignal;
}

/** A parent serving its children: decides each request once and answers it once. */
export interface ServingEndpoint {
	open(): Promise<void>;
	close(): Promise<void>;
}

export interface ServeOptions {
	/** The agent dir: everything the endpoint keeps locally lives below it, private to this user. */
	readonly base: string;
	readonly sessionId: string;
	readonly path: readonly string[];
	readonly log: HubLog;
	readonly decide: (ask: ServedAsk) => Promise<ServerAnswer>;
	/**
	 * An answer the endpoint could not hand back (a full disk): the child learns at once that nobody could answer
	 * (not after its timeout), and whoever answered must hear here that their answer did not arrive.
	 */
	readonly undelivered: (request: ForwardRequest, why: string) => void;
}

export interface HubTransport {
	/** Serve this session's children (opened by the caller). */
	serve(options: ServeOptions): ServingEndpoint;
	/** Hand `request` to the parent and wait for its answer, or learn that nobody can give one. */
	forward(target: ParentTarget, request: ForwardRequest, options: ForwardOptions): Promise<ForwardOutcome>;
	/** Hand `request` to the parent without waiting (the answer goes to the parked store); why it failed, or null. */
	deliver(target: ParentTarget, request: ForwardRequest): Promise<string | null>;
	/** Why the parent cannot take an ask now (it is gone, or does not serve its inbox), or null when it can. */
	unreachable(target: ParentTarget): string | null;
}
