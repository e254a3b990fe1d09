import type { HubLog } from "../hub/hub-log.ts";
import type { ParkedStore } from "../hub/parked-store.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import type { ParentTarget } from "../hub/resolve-parent.ts";
import type { HubTransport } from "../hub/transport.ts";
import type { SessionGrant } from "../policy/grant-coverage.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import {
	buildForwardRequest,
	type ForwardingIdentity,
	relayForwardRequest,
} from "./build-forward-request.ts";
import { toGrants } from "./local-dialog-authorizer.ts";
import { parkRequest } from "./parking.ts";
import type { Ask, TerminalAuthorizer, TerminalDecision } from "./terminal-authorizer.ts";

export interface ParentForwardingOptions {
	readonly target: ParentTarget;
	readonly identity: ForwardingIdentity;
	readonly log: HubLog;
	readonly parked: ParkedStore;
	readonly transport: HubTransport;
}

/** Grace a child gives its parent beyond the request's expiry, so the parent's own "no answer" arrives first. */
const EXPIRY_GRACE_MS = 2000;

/**
 * This session is a subagent: its asks go to its parent through the hub, and the answer comes back wrapped
 * in a `forwarded` frame naming the responder. It also relays asks its own children forwarded to it, hop by
 * hop, so the root's answer reaches a grandchild with one frame per hop.
 */
export class ParentForwardingAuthorizer implements TerminalAuthorizer {
	readonly kind = "parent-forwarding";
	private readonly options: ParentForwardingOptions;

	constructor(options: ParentForwardingOptions) {
		this.options = options;
	}

	async decide(ask: Ask): Promise<TerminalDecision> {
		if (ask.unanswered === "deny") {
			return unavailable("the unanswered policy is deny: asks are refused without forwarding them");
		}
		const { target, identity, log, parked, transport } = this.options;
		const request: ForwardRequest =
			ask.kind === "forwarded"
				? relayForwardRequest(ask.request, identity, ask.origin, ask.humanOnly)
				: buildForwardRequest(ask, identity);
		if (ask.unanswered === "defer") {
			const result = await parkRequest(parked, request, `parked as request ${request.id}`);
			if (result.outcome !== "parked") return result;
			// Also hand it to the parent now, without waiting: a human there may answer it while it is parked.
			const undelivered = await transport.deliver(target, request);
			if (undelivered)
				log.write("client.park_delivery_failed", { requestId: request.id, reason: undelivered });
			return result;
		}
		const timeoutMs = Math.max(1, Date.parse(request.expiresAt) - Date.now()) + EXPIRY_GRACE_MS;
		const outcome = await transport.forward(target, request, {
			timeoutMs,
			log,
			...(ask.signal ? { signal: ask.signal } : {}),
		});
		if (outcome.kind === "unavailable") {
			return unavailable(`${outcome.reason} (parent session ${target.sessionId})`);
		}
		const { response } = outcome;
		const source: DecisionSource = {
			kind: "forwarded",
			responderSessionId: response.responderSessionId,
			decision: outcome.source,
		};
		switch (response.decision) {
			case "allow": {
				const grants: SessionGrant[] =
					response.scope === "subagent" ? toGrants(response.grants, "subagent") : [];
				return { outcome: "allow", source, scope: response.scope, grants };
			}
			case "deny":
				// Only a human's typed reason is passed on as such; the rest is in the forwarded source.
				return {
					outcome: "deny",
					source,
					...(response.reason && outcome.source?.kind === "user" ? { userReason: response.reason } : {}),
				};
			case "parked":
				return { outcome: "parked", source, requestId: response.requestId };
		}
	}
}

function unavailable(reason: string): TerminalDecision {
	return { outcome: "deny", source: { kind: "unavailable", reason } };
}
