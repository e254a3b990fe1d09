import { processWide } from "../process-wide.ts";
import type { AuthorizerLink } from "./authorizer-link.ts";

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
