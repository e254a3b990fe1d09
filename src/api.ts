/**
 * The public API of pi-permission-hub for other extensions (`import … from "pi-permission-hub"`).
 * Everything here works across module copies and sessions in one process: pi loads each extension with its
 * own module instance, so state lives in process-wide `Symbol.for` slots, not in this module.
 *
 * Versioned by API_VERSION: additions keep the number; a breaking change bumps it.
 */
import { queryDecision } from "./gate/policy-query.ts";

export const API_VERSION = 1;

export {
	ASK_CLOSED_CHANNEL,
	ASK_OPENED_CHANNEL,
	type AskClosedEvent,
	type AskEvent,
	type AskEventBase,
	type AskListener,
	type AskOpenedEvent,
	type AskOutcome,
	onAsk,
} from "./authority/ask-events.ts";
export type {
	AuthorizerLink,
	AuthorizerRequest,
	LinkVerdict,
	PolicyQuery,
	QueryResult,
} from "./authority/authorizer-link.ts";
export {
	REGISTER_AUTHORIZER_CHANNEL,
	registerAuthorizer,
	registeredAuthorizerNames,
	UNREGISTER_AUTHORIZER_CHANNEL,
	unregisterAuthorizer,
} from "./authority/authorizer-link.ts";
export type { QueuePosition } from "./authority/dialog-queue.ts";
export type { ActionPart, CommandUnit, PathTouch } from "./classify/action.ts";
export {
	DECISION_EVENT_CHANNEL,
	type DecisionEvent,
	type DecisionListener,
	onDecision,
} from "./gate/decision-events.ts";
export type { Origin } from "./origin/origin.ts";
export type { DecisionSource } from "./provenance/decision-source.ts";
export type { DecisionMode, Tier } from "./vocabulary/tier.ts";
export { queryDecision };
