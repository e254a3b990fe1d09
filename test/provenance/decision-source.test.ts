import { describe, expect, it } from "vitest";
import {
	capSourceText,
	type DecisionSource,
	innermostSource,
	MAX_FORWARD_DEPTH,
	MAX_SOURCE_TEXT,
	readDecisionSource,
} from "../../src/provenance/decision-source.ts";

/** One valid source of every flat kind, as it would be written to disk. */
const FLAT_SOURCES: readonly DecisionSource[] = [
	{ kind: "user", via: "dialog", verdict: "allow", scope: "once" },
	{ kind: "user", via: "cli", verdict: "deny", scope: "tree", reason: "not on main" },
	{ kind: "user", via: "typed", verdict: "allow", scope: "session" },
	{ kind: "authorizer", link: "corp/policy-bot", verdict: "deny", reason: "outside change window" },
	{ kind: "authorizer", link: "ci-guard", verdict: "allow" },
	{
		kind: "rule",
		surface: "command",
		pattern: "git push *",
		action: "deny",
		origin: { file: "/home/dev/.pi/agent/pi-permission-hub/config.json", jsonPath: "rules[3]", line: 12 },
		reason: "pushes go through review",
	},
	{
		kind: "rule",
		surface: "tier",
		pattern: "read",
		action: "auto",
		origin: { file: "built-in", jsonPath: "" },
	},
	{
		kind: "session_grant",
		grantId: "5b0c1f7e-0000-4000-8000-000000000001",
		surface: "command",
		pattern: "git checkout *",
		scope: "tree",
	},
	{
		kind: "parked_approval",
		requestId: "req-01HZY",
		approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
	},
	{ kind: "unavailable", reason: "no UI and no parent session" },
	{ kind: "gate_error", reason: "classifier crashed" },
];

/** The source as it comes back from disk: serialized and parsed again. */
function fromDisk(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value));
}

function forwardedChain(hops: number, leaf: unknown, firstId = "session-1"): unknown {
	let value: unknown = leaf;
	for (let i = hops; i >= 1; i--) {
		value = { kind: "forwarded", responderSessionId: i === 1 ? firstId : `session-${i}`, decision: value };
	}
	return value;
}

describe("readDecisionSource: valid input", () => {
	it.each(FLAT_SOURCES.map((s) => [s.kind, s] as const))(
		"reads a %s source back unchanged",
		(_kind, source) => {
			expect(readDecisionSource(fromDisk(source))).toEqual(source);
		},
	);

	it("reads a forwarded chain, one frame per hop, down to the deciding source", () => {
		const leaf: DecisionSource = { kind: "user", via: "dialog", verdict: "allow", scope: "tree" };
		const chain = forwardedChain(3, leaf);
		expect(readDecisionSource(fromDisk(chain))).toEqual(chain);
	});

	it("keeps a forwarded hop whose responder sent no source (decision null)", () => {
		const value = { kind: "forwarded", responderSessionId: "parent", decision: null };
		expect(readDecisionSource(value)).toEqual(value);
		expect(readDecisionSource(forwardedChain(2, null))).toEqual(forwardedChain(2, null));
	});

	it("accepts exactly MAX_FORWARD_DEPTH forwarded frames and refuses one more", () => {
		const leaf: DecisionSource = { kind: "unavailable", reason: "root has no UI" };
		expect(readDecisionSource(forwardedChain(MAX_FORWARD_DEPTH, leaf))).not.toBeNull();
		expect(readDecisionSource(forwardedChain(MAX_FORWARD_DEPTH + 1, leaf))).toBeNull();
		expect(readDecisionSource(forwardedChain(MAX_FORWARD_DEPTH, null))).not.toBeNull();
		expect(readDecisionSource(forwardedChain(MAX_FORWARD_DEPTH + 1, null))).toBeNull();
	});

	it("reads a parked approval with what settled it, and one in the older form as that surface's allow", () => {
		const byLink: DecisionSource = {
			kind: "parked_approval",
			requestId: "r",
			approvedBy: {
				kind: "forwarded",
				responderSessionId: "p",
				decision: { kind: "authorizer", link: "ci", verdict: "allow" },
			},
		};
		expect(readDecisionSource(byLink)).toEqual(byLink);
		expect(readDecisionSource({ kind: "parked_approval", requestId: "r", approvedVia: "cli" })).toEqual({
			kind: "parked_approval",
			requestId: "r",
			approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
		});
		// Nesting through parked approvals counts against the same cap as forwarding hops.
		let nested: unknown = { kind: "user", via: "cli", verdict: "allow", scope: "once" };
		for (let i = 0; i < MAX_FORWARD_DEPTH; i++)
			nested = { kind: "parked_approval", requestId: `r${i}`, approvedBy: nested };
		expect(readDecisionSource(nested)).not.toBeNull();
		expect(readDecisionSource({ kind: "forwarded", responderSessionId: "p", decision: nested })).toBeNull();
	});

	it("drops fields it does not know instead of carrying them along", () => {
		const read = readDecisionSource({
			kind: "gate_error",
			reason: "x",
			injected: "<script>",
			extra: { a: 1 },
		});
		expect(read).toEqual({ kind: "gate_error", reason: "x" });
	});

	it("accepts texts of exactly the cap and refuses one character more", () => {
		const atCap = "r".repeat(MAX_SOURCE_TEXT);
		expect(readDecisionSource({ kind: "unavailable", reason: atCap })).toEqual({
			kind: "unavailable",
			reason: atCap,
		});
		expect(readDecisionSource({ kind: "unavailable", reason: `${atCap}r` })).toBeNull();
	});
});

describe("readDecisionSource: hostile or broken input is refused whole, never thrown", () => {
	const leaf: DecisionSource = { kind: "user", via: "dialog", verdict: "allow", scope: "once" };

	it.each([
		["null", null],
		["undefined", undefined],
		["a number", 42],
		["a string", "user"],
		["a boolean", true],
		["an array", [leaf]],
		["an empty object", {}],
		["an unknown kind", { kind: "admin", verdict: "allow" }],
		["a kind of the wrong type", { kind: 7 }],
		["a user source with a bad verdict", { ...leaf, verdict: "maybe" }],
		["a user source with a bad scope", { ...leaf, scope: "forever" }],
		["a user source with a bad surface", { ...leaf, via: "telepathy" }],
		["a user source missing its scope", { kind: "user", via: "dialog", verdict: "allow" }],
		["an authorizer defer (links cannot record defer)", { kind: "authorizer", link: "x", verdict: "defer" }],
		["a rule with a bad surface", { ...FLAT_SOURCES[5], surface: "network" }],
		[
			"a rule with a fractional line",
			{ ...FLAT_SOURCES[5], origin: { file: "f", jsonPath: "p", line: 1.5 } },
		],
		["a rule with a negative line", { ...FLAT_SOURCES[5], origin: { file: "f", jsonPath: "p", line: -1 } }],
		["a rule without origin", { kind: "rule", surface: "tool", pattern: "bash", action: "deny" }],
		["a reason that is a number", { kind: "unavailable", reason: 5 }],
		["a reason that is an object", { kind: "gate_error", reason: { toString: "x" } }],
		[
			"a parked approval via an unknown surface",
			{ kind: "parked_approval", requestId: "r", approvedVia: "email" },
		],
		["a parked approval settled by nothing", { kind: "parked_approval", requestId: "r" }],
		[
			"a parked approval settled by a malformed source",
			{ kind: "parked_approval", requestId: "r", approvedBy: { kind: "user", via: "dialog" } },
		],
		["a forwarded frame without decision", { kind: "forwarded", responderSessionId: "p" }],
		["a forwarded frame with a numeric id", { kind: "forwarded", responderSessionId: 1, decision: null }],
		[
			"a forwarded frame with an array decision",
			{ kind: "forwarded", responderSessionId: "p", decision: [leaf] },
		],
		[
			"a forwarded frame with a string decision",
			{ kind: "forwarded", responderSessionId: "p", decision: "user" },
		],
	])("refuses %s", (_name, value) => {
		expect(readDecisionSource(value)).toBeNull();
	});

	it("refuses a whole chain when one frame deep inside is malformed (all-or-nothing)", () => {
		const badLeaf = { kind: "user", via: "dialog", verdict: "allow", scope: "forever" };
		expect(readDecisionSource(forwardedChain(5, badLeaf))).toBeNull();
		const badHop = { kind: "forwarded", responderSessionId: "p", decision: forwardedChain(3, leaf, "") };
		expect(readDecisionSource(badHop)).not.toBeNull();
		const longId = "x".repeat(MAX_SOURCE_TEXT + 1);
		const tooLongHop = {
			kind: "forwarded",
			responderSessionId: "p",
			decision: forwardedChain(3, leaf, longId),
		};
		expect(readDecisionSource(tooLongHop)).toBeNull();
	});

	// How long it takes is bench figure 9 (npm run bench -- 9).
	it("refuses a 200 000-frame chain parsed from JSON, without a stack overflow", () => {
		const depth = 200_000;
		const text = `${'{"kind":"forwarded","responderSessionId":"p","decision":'.repeat(depth)}null${"}".repeat(depth)}`;
		const value: unknown = JSON.parse(text);
		expect(readDecisionSource(value)).toBeNull();
	});

	it("refuses an in-memory cycle (a frame that forwards to itself) at the depth cap", () => {
		const cyclic: { kind: string; responderSessionId: string; decision: unknown } = {
			kind: "forwarded",
			responderSessionId: "loop",
			decision: null,
		};
		cyclic.decision = cyclic;
		expect(readDecisionSource(cyclic)).toBeNull();
	});

	it("refuses deep nesting hidden in a non-recursive field", () => {
		const depth = 100_000;
		const nested: unknown = JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
		expect(readDecisionSource({ kind: "gate_error", reason: nested })).toBeNull();
		expect(readDecisionSource({ ...FLAT_SOURCES[5], origin: nested })).toBeNull();
	});

	it("refuses over-long texts in every field that carries one", () => {
		const long = "a".repeat(MAX_SOURCE_TEXT + 1);
		const cases: unknown[] = [
			{ ...leaf, reason: long },
			{ kind: "authorizer", link: long, verdict: "allow" },
			{ ...FLAT_SOURCES[5], pattern: long },
			{ ...FLAT_SOURCES[5], origin: { file: long, jsonPath: "" } },
			{ ...FLAT_SOURCES[5], origin: { file: "f", jsonPath: long } },
			{ ...FLAT_SOURCES[7], grantId: long },
			{ kind: "parked_approval", requestId: long, approvedVia: "cli" },
			{ kind: "gate_error", reason: long },
			{ kind: "forwarded", responderSessionId: long, decision: null },
		];
		for (const value of cases) expect(readDecisionSource(value)).toBeNull();
	});

	it("does not let __proto__ or constructor keys pollute prototypes or the result", () => {
		const text =
			'{"kind":"user","via":"dialog","verdict":"allow","scope":"once","__proto__":{"polluted":true,"kind":"gate_error"},"constructor":{"prototype":{"polluted":true}}}';
		const read = readDecisionSource(JSON.parse(text));
		expect(read).toEqual({ kind: "user", via: "dialog", verdict: "allow", scope: "once" });
		expect(read === null ? [] : Object.keys(read)).not.toContain("__proto__");
		expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
		expect(Reflect.get({}, "polluted")).toBeUndefined();
		const frame = JSON.parse(
			'{"kind":"forwarded","responderSessionId":"p","decision":{"__proto__":{"kind":"user","via":"dialog","verdict":"allow","scope":"once"}}}',
		);
		// The inherited-looking fields are an own `__proto__` key after JSON.parse: not a source.
		expect(readDecisionSource(frame)).toBeNull();
	});

	it("returns null instead of throwing for values whose getters or proxy traps throw", () => {
		const throwingGetter = {
			kind: "user",
			get via(): string {
				throw new Error("getter");
			},
			verdict: "allow",
			scope: "once",
		};
		const throwingProxy = new Proxy(
			{},
			{
				get() {
					throw new Error("get trap");
				},
				getPrototypeOf() {
					throw new Error("prototype trap");
				},
				ownKeys() {
					throw new Error("keys trap");
				},
			},
		);
		expect(readDecisionSource(throwingGetter)).toBeNull();
		expect(readDecisionSource(throwingProxy)).toBeNull();
		expect(
			readDecisionSource({ kind: "forwarded", responderSessionId: "p", decision: throwingProxy }),
		).toBeNull();
	});
});

describe("capSourceText", () => {
	it("keeps short texts and cuts long ones to the cap the reader accepts", () => {
		expect(capSourceText("short")).toBe("short");
		const cut = capSourceText("x".repeat(MAX_SOURCE_TEXT * 3));
		expect(cut).toHaveLength(MAX_SOURCE_TEXT);
		expect(readDecisionSource({ kind: "gate_error", reason: cut })).not.toBeNull();
	});

	it("never leaves half a surrogate pair at the cut", () => {
		const text = `${"a".repeat(MAX_SOURCE_TEXT - 1)}😀tail`;
		const cut = capSourceText(text);
		expect(cut).toBe("a".repeat(MAX_SOURCE_TEXT - 1));
		// A lone surrogate would not survive a UTF-8 round trip.
		expect(Buffer.from(cut, "utf8").toString("utf8")).toBe(cut);
	});
});

describe("innermostSource", () => {
	const leaf: DecisionSource = { kind: "user", via: "dialog", verdict: "allow", scope: "tree" };

	it("is the source itself, with no hops, when it decided where it was recorded", () => {
		expect(innermostSource(leaf)).toEqual({ source: leaf, hops: 0 });
	});

	it("follows every forwarding hop to the source that decided", () => {
		const chain = readDecisionSource(forwardedChain(3, leaf));
		expect(chain === null ? null : innermostSource(chain)).toEqual({ source: leaf, hops: 3 });
	});

	it("is null when the last hop sent no source", () => {
		const chain = readDecisionSource(forwardedChain(2, null));
		expect(chain === null ? null : innermostSource(chain)).toEqual({ source: null, hops: 2 });
	});
});
