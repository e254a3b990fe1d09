import { afterEach, describe, expect, it } from "vitest";
import type { AuthorizerLink } from "../../src/authority/authorizer-link.ts";
import {
	getAuthorizer,
	isValidLinkName,
	registerAuthorizer,
	registeredAuthorizerNames,
	unregisterAuthorizer,
} from "../../src/authority/authorizer-link.ts";

type RegistryModule = typeof import("../../src/authority/authorizer-link.ts");

/** A second, separately loaded copy of the module (as pi loads each extension through its own instance). */
async function secondCopy(): Promise<RegistryModule> {
	const specifier = "../../src/authority/authorizer-link.ts?copy=2";
	const copy: RegistryModule = await import(specifier);
	return copy;
}

const allow: AuthorizerLink = () => ({ verdict: "allow" });
const deny: AuthorizerLink = () => ({ verdict: "deny" });

afterEach(() => {
	for (const name of registeredAuthorizerNames()) unregisterAuthorizer(name);
});

describe("authorizer registry", () => {
	it("registers, looks up and lists links by name (sorted)", () => {
		registerAuthorizer("zeta", allow);
		registerAuthorizer("alpha", deny);
		expect(getAuthorizer("zeta")).toBe(allow);
		expect(getAuthorizer("alpha")).toBe(deny);
		expect(getAuthorizer("missing")).toBeUndefined();
		expect(registeredAuthorizerNames()).toEqual(["alpha", "zeta"]);
	});

	it("a later registration under the same name replaces the earlier one", () => {
		registerAuthorizer("bot", allow);
		registerAuthorizer("bot", deny);
		expect(getAuthorizer("bot")).toBe(deny);
		expect(registeredAuthorizerNames()).toEqual(["bot"]);
	});

	it("an unregister function removes exactly its own registration", () => {
		const first = registerAuthorizer("bot", allow);
		const second = registerAuthorizer("bot", deny);
		// The stale instance's unregister leaves the newer link alone.
		first();
		expect(getAuthorizer("bot")).toBe(deny);
		second();
		expect(getAuthorizer("bot")).toBeUndefined();
		// Calling it again is harmless, and does not remove a link registered after it.
		registerAuthorizer("bot", allow);
		second();
		expect(getAuthorizer("bot")).toBe(allow);
	});

	it("unregisterAuthorizer removes by name and says whether there was one", () => {
		registerAuthorizer("bot", allow);
		expect(unregisterAuthorizer("bot")).toBe(true);
		expect(unregisterAuthorizer("bot")).toBe(false);
	});

	it.each(["a", "corp/policy-bot", "org.example:guard@2", "A9-x", "x".repeat(128)])(
		"accepts the name %s",
		(name) => {
			expect(isValidLinkName(name)).toBe(true);
			registerAuthorizer(name, allow);
			expect(getAuthorizer(name)).toBe(allow);
		},
	);

	it.each([
		["empty", ""],
		["too long", "x".repeat(129)],
		["a leading dash", "-bot"],
		["a leading dot", ".bot"],
		["a space", "my bot"],
		["a newline", "bot\nother"],
		["a bidi override", "bot\u202e"],
		["a NUL", "bot\u0000"],
		["non-ASCII", "bøt"],
	])("refuses a name with %s", (_why, name) => {
		expect(isValidLinkName(name)).toBe(false);
		expect(() => registerAuthorizer(name, allow)).toThrow(/invalid authorizer link name/);
		expect(registeredAuthorizerNames()).toEqual([]);
	});

	it("refuses something that is not a function", () => {
		const notALink: unknown = { verdict: "allow" };
		expect(() => Reflect.apply(registerAuthorizer, undefined, ["bot", notALink])).toThrow(/not a function/);
		expect(getAuthorizer("bot")).toBeUndefined();
	});
});

describe("authorizer registry: one table per process", () => {
	it("two separately loaded copies of the module share the same links", async () => {
		const copy = await secondCopy();
		expect(copy.registerAuthorizer).not.toBe(registerAuthorizer);
		copy.registerAuthorizer("from-copy", allow);
		expect(getAuthorizer("from-copy")).toBe(allow);
		registerAuthorizer("from-original", deny);
		expect(copy.getAuthorizer("from-original")).toBe(deny);
		expect(copy.registeredAuthorizerNames()).toEqual(registeredAuthorizerNames());
	});

	it("a stale copy's unregister does not remove the link a newer copy registered", async () => {
		const copy = await secondCopy();
		const stale = registerAuthorizer("shared", allow);
		const fresh = copy.registerAuthorizer("shared", deny);
		stale();
		expect(getAuthorizer("shared")).toBe(deny);
		fresh();
		expect(copy.getAuthorizer("shared")).toBeUndefined();
	});

	it("the table lives in a Symbol.for slot on globalThis", () => {
		registerAuthorizer("visible", allow);
		const slot: unknown = Reflect.get(globalThis, Symbol.for("pi-permission-hub.authorizer-registry.v1"));
		expect(slot).toBeInstanceOf(Map);
		expect(slot instanceof Map && slot.has("visible")).toBe(true);
	});
});
