import { createEventBus } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuthorizerRequest, PolicyQuery } from "../../src/authority/authorizer-link.ts";
import {
	getAuthorizer,
	listenForLinkRegistrations,
	REGISTER_AUTHORIZER_CHANNEL,
	registeredAuthorizerNames,
	UNREGISTER_AUTHORIZER_CHANNEL,
	unregisterAuthorizer,
} from "../../src/authority/authorizer-link.ts";
import { runAuthorizerChain } from "../../src/authority/run-authorizer-chain.ts";

const policy: PolicyQuery = {
	decide: async () => ({ mode: "ask", tier: "write", actionHash: "h", basis: "test policy" }),
};

const request: Omit<AuthorizerRequest, "signal"> = {
	tool: "write",
	input: { path: "notes.md", content: "hi" },
	cwd: "/work/project",
	tier: "write",
	parts: [],
	actionHash: "d".repeat(64),
	preview: "write notes.md",
	origin: { kind: "human" },
	sessionId: "session-1",
	why: "the write tier asks",
	forwarded: false,
	policy,
};

/** pi's own event bus (`pi.events` is one of these), with our listener attached. */
function bus() {
	const events = createEventBus();
	listenForLinkRegistrations(events);
	return events;
}

afterEach(() => {
	for (const name of registeredAuthorizerNames()) unregisterAuthorizer(name);
	vi.restoreAllMocks();
});

describe("registering links over pi.events", () => {
	it("a valid payload registers a link the chain can run", async () => {
		const events = bus();
		const seen: string[] = [];
		events.emit(REGISTER_AUTHORIZER_CHANNEL, {
			name: "corp/bot",
			authorize: (req: AuthorizerRequest) => {
				seen.push(req.tool);
				return { verdict: "deny", reason: "not in the allow list" };
			},
		});
		expect(registeredAuthorizerNames()).toEqual(["corp/bot"]);
		const outcome = await runAuthorizerChain(["corp/bot"], request, { lookup: getAuthorizer });
		expect(outcome.decided).toEqual({ link: "corp/bot", verdict: "deny", reason: "not in the allow list" });
		expect(seen).toEqual(["write"]);
	});

	it("calls the authorize function with no `this` taken from the payload", async () => {
		const events = bus();
		const payload = {
			name: "this-check",
			secret: "payload internals",
			authorize(this: unknown) {
				return { verdict: this === undefined ? "allow" : "deny" };
			},
		};
		events.emit(REGISTER_AUTHORIZER_CHANNEL, payload);
		const outcome = await runAuthorizerChain(["this-check"], request, { lookup: getAuthorizer });
		expect(outcome.decided?.verdict).toBe("allow");
	});

	it("a link registered over events that returns garbage is an error step, not a decision", async () => {
		const events = bus();
		events.emit(REGISTER_AUTHORIZER_CHANNEL, { name: "sloppy", authorize: () => "yes" });
		const outcome = await runAuthorizerChain(["sloppy"], request, { lookup: getAuthorizer });
		expect(outcome.decided).toBeNull();
		expect(outcome.steps[0]?.result).toBe("error");
	});

	it.each<[string, unknown]>([
		["null", null],
		["undefined", undefined],
		["a string", "corp/bot"],
		["a number", 7],
		["an array", ["corp/bot", () => ({ verdict: "allow" })]],
		["no name", { authorize: () => ({ verdict: "allow" }) }],
		["a numeric name", { name: 5, authorize: () => ({ verdict: "allow" }) }],
		["no authorize", { name: "corp/bot" }],
		["authorize that is not a function", { name: "corp/bot", authorize: { verdict: "allow" } }],
		["an invalid name", { name: "has spaces", authorize: () => ({ verdict: "allow" }) }],
		["a name with a bidi override", { name: "bot\u202e", authorize: () => ({ verdict: "allow" }) }],
	])("ignores a payload that is %s", (_what, payload) => {
		const errors = vi.spyOn(console, "error");
		bus().emit(REGISTER_AUTHORIZER_CHANNEL, payload);
		expect(registeredAuthorizerNames()).toEqual([]);
		expect(errors).not.toHaveBeenCalled();
	});

	it("ignores, silently, a payload whose getters throw", () => {
		const errors = vi.spyOn(console, "error");
		const events = bus();
		const hostile = {
			get name(): string {
				throw new Error("getter");
			},
		};
		const proxy = new Proxy(
			{},
			{
				get() {
					throw new Error("trap");
				},
			},
		);
		events.emit(REGISTER_AUTHORIZER_CHANNEL, hostile);
		events.emit(REGISTER_AUTHORIZER_CHANNEL, proxy);
		events.emit(UNREGISTER_AUTHORIZER_CHANNEL, hostile);
		expect(registeredAuthorizerNames()).toEqual([]);
		expect(errors).not.toHaveBeenCalled();
	});

	it("unregisters by name, given as a string or as {name}", () => {
		const events = bus();
		const link = { authorize: () => ({ verdict: "allow" }) };
		events.emit(REGISTER_AUTHORIZER_CHANNEL, { name: "a", ...link });
		events.emit(REGISTER_AUTHORIZER_CHANNEL, { name: "b", ...link });
		events.emit(UNREGISTER_AUTHORIZER_CHANNEL, "a");
		expect(registeredAuthorizerNames()).toEqual(["b"]);
		events.emit(UNREGISTER_AUTHORIZER_CHANNEL, { name: "b" });
		expect(registeredAuthorizerNames()).toEqual([]);
		events.emit(UNREGISTER_AUTHORIZER_CHANNEL, 42);
		events.emit(UNREGISTER_AUTHORIZER_CHANNEL, null);
	});
});
