import type { AuthorizerLink } from "./authorizer-link.ts";
import { registerAuthorizer, unregisterAuthorizer } from "./authorizer-registry.ts";

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
