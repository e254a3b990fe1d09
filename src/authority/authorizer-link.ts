import type { ActionPart } from "../classify/action.ts";
import type { Origin } from "../origin/origin.ts";
import { processWide } from "../process-wide.ts";
import type { DecisionMode, Tier } from "../vocabulary/tier.ts";

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
	readonly mode: DecisionMode;
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

/**
 * Links are registered by name in one process-wide table. pi loads every extension through its own module
 * instance (and in-process subagents bring more), so a module-level Map would split the table; a
 * `Symbol.for` slot on globalThis is shared by all copies of this package in the process.
 */
interface RegisteredLink {
	readonly name: string;
	readonly authorize: AuthorizerLink;
	readonly token: symbol;
}

type Registry = Map<string, RegisteredLink>;

function registry(): Registry {
	return processWide<Registry>("authorizer-registry.v1", () => new Map());
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/;

export function isValidLinkName(name: string): boolean {
	return NAME.test(name);
}

/**
 * Register (or replace) a link. Returns an unregister function that removes exactly this registration, so
 * a stale extension instance cannot remove the link a newer instance registered under the same name.
 */
export function registerAuthorizer(name: string, authorize: AuthorizerLink): () => void {
	if (!isValidLinkName(name)) throw new Error(`pi-permission-hub: invalid authorizer link name "${name}"`);
	if (typeof authorize !== "function")
		throw new Error(`pi-permission-hub: authorizer "${name}" is not a function`);
	const token = Symbol(name);
	registry().set(name, { name, authorize, token });
	return () => {
		const current = registry().get(name);
		if (current?.token === token) registry().delete(name);
	};
}

export function unregisterAuthorizer(name: string): boolean {
	return registry().delete(name);
}

export function getAuthorizer(name: string): AuthorizerLink | undefined {
	return registry().get(name)?.authorize;
}

export function registeredAuthorizerNames(): string[] {
	return [...registry().keys()].sort();
}

export const REGISTER_AUTHORIZER_CHANNEL = "pi-permission-hub:register-authorizer";
export const UNREGISTER_AUTHORIZER_CHANNEL = "pi-permission-hub:unregister-authorizer";

interface EventBus {
	on(channel: string, handler: (data: unknown) => void): () => void;
}

/**
 * The same registry over `pi.events`, for extensions that do not import this package:
 * `pi.events.emit("pi-permission-hub:register-authorizer", { name, authorize })`. Payloads are checked, not
 * trusted; a malformed one is ignored (there is nobody to report to on a broadcast channel).
 */
export function listenForLinkRegistrations(events: EventBus): void {
	events.on(REGISTER_AUTHORIZER_CHANNEL, (data) => {
		try {
			if (typeof data !== "object" || data === null) return;
			const name: unknown = Reflect.get(data, "name");
			const authorize: unknown = Reflect.get(data, "authorize");
			if (typeof name !== "string" || typeof authorize !== "function") return;
			const link: AuthorizerLink = (request) => Reflect.apply(authorize, undefined, [request]);
			registerAuthorizer(name, link);
		} catch {
			// An invalid name, or a payload whose getters throw: the link stays unregistered, and the chain
			// reports it as such when configured.
		}
	});
	events.on(UNREGISTER_AUTHORIZER_CHANNEL, (data) => {
		try {
			const name: unknown =
				typeof data === "string"
					? data
					: typeof data === "object" && data !== null
						? Reflect.get(data, "name")
						: undefined;
			if (typeof name === "string") unregisterAuthorizer(name);
		} catch {
			// A payload whose getters throw names nothing.
		}
	});
}
