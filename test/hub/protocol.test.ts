import { describe, expect, it } from "vitest";
import {
	type ForwardResponse,
	forwardRequestSchema,
	forwardResponseSchema,
	MAX_INPUT_DEPTH,
	newRequestId,
	PROTOCOL,
} from "../../src/hub/protocol.ts";
import { hashOf, makeRequest } from "./sample-request.ts";

/** What arrives in a file: a plain JSON value. */
function onDisk(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value));
}

function validResponse(): ForwardResponse {
	const id = newRequestId();
	return {
		protocol: PROTOCOL,
		requestId: id,
		actionHash: hashOf(id),
		decision: "allow",
		scope: "subagent",
		grants: [{ surface: "command", pattern: "npm test", limit: { tier: "write", outsideCwd: false } }],
		reason: "fine",
		source: { kind: "user", via: "dialog", verdict: "allow", scope: "subagent" },
		responderSessionId: "root-session",
		respondedAt: new Date().toISOString(),
	};
}

function nested(depth: number): Record<string, unknown> {
	const root: Record<string, unknown> = {};
	let current = root;
	for (let i = 0; i < depth; i++) {
		const inner: Record<string, unknown> = {};
		current.a = inner;
		current = inner;
	}
	return root;
}

describe("forward request schema", () => {
	it("accepts a valid request as written to disk", () => {
		const request = makeRequest({
			suggestions: [
				{ surface: "command", pattern: "rm -rf build", limit: { tier: "destructive", outsideCwd: false } },
			],
			grantable: true,
			asking: [
				{ tier: "write", why: "writes", paths: [{ access: "write", path: "/work/project/a.txt" }] },
				{ tier: "destructive", why: "rm", command: "rm -rf build" },
			],
		});
		const parsed = forwardRequestSchema().safeParse(onDisk(request));
		expect(parsed.success).toBe(true);
		expect(parsed.data).toEqual(request);
	});

	it("tolerates unknown optional fields from a newer peer (and drops them)", () => {
		const raw = { ...makeRequest(), addedInV2: { anything: [1, 2] }, note: "hello" };
		const parsed = forwardRequestSchema().safeParse(onDisk(raw));
		expect(parsed.success).toBe(true);
		expect(parsed.data).not.toHaveProperty("addedInV2");
		// Unknown fields nested in known objects are tolerated too.
		const chain = [{ agent: "worker", sessionId: "s", color: "blue" }];
		expect(forwardRequestSchema().safeParse(onDisk({ ...makeRequest(), chain })).success).toBe(true);
	});

	it("reads humanOnly as sent when it is a boolean, and as absent from an older child that does not write it", () => {
		const parse = (raw: unknown) => forwardRequestSchema().safeParse(onDisk(raw));
		expect(parse(makeRequest()).data?.humanOnly).toBeUndefined();
		expect(parse(makeRequest({ humanOnly: true })).data?.humanOnly).toBe(true);
		expect(parse(makeRequest({ humanOnly: false })).data?.humanOnly).toBe(false);
	});

	const malformed: [string, Record<string, unknown>][] = [
		["another protocol", { protocol: "pi-permission-hub/2" }],
		["a lowercase id", { id: newRequestId().toLowerCase() }],
		["a 25-character id", { id: newRequestId().slice(0, 25) }],
		["an id with a path", { id: "../../../../etc/passwd00000" }],
		["an id with an excluded letter (U)", { id: `U${newRequestId().slice(1)}` }],
		["a short action hash", { actionHash: "ab" }],
		["an uppercase action hash", { actionHash: "A".repeat(64) }],
		["an unknown tier", { tier: "godmode" }],
		["no asking part", { asking: [] }],
		["an input that is an array", { input: ["rm"] }],
		["an input that is null", { input: null }],
		["a pid of zero", { requesterPid: 0 }],
		["a fractional pid", { requesterPid: 1.5 }],
		["a pid as a string", { requesterPid: "123" }],
		["a non-ISO expiry", { expiresAt: "tomorrow" }],
		["an unknown unanswered policy", { unanswered: "ignore" }],
		["grantable as a string", { grantable: "yes" }],
		// A request whose verdict cannot be read is refused whole, never read as "not human-only".
		["humanOnly as a string", { humanOnly: "true" }],
		["humanOnly as a number", { humanOnly: 1 }],
		["humanOnly as null", { humanOnly: null }],
		["an empty chain", { chain: [] }],
		["a 33-hop chain", { chain: Array.from({ length: 33 }, () => ({ agent: "a", sessionId: "s" })) }],
		["a preview over 8 KiB", { preview: "p".repeat(8193) }],
		[
			"a suggestion for an unknown surface",
			{ suggestions: [{ surface: "net", pattern: "*", limit: { tier: "read", outsideCwd: false } }] },
		],
		[`an input nested deeper than ${MAX_INPUT_DEPTH}`, { input: nested(MAX_INPUT_DEPTH + 1) }],
	];
	for (const [what, override] of malformed) {
		it(`rejects ${what}`, () => {
			expect(forwardRequestSchema().safeParse(onDisk({ ...makeRequest(), ...override })).success).toBe(false);
		});
	}

	it("rejects a request missing any required field", () => {
		for (const key of Object.keys(makeRequest())) {
			const raw: Record<string, unknown> = { ...makeRequest() };
			delete raw[key];
			expect(forwardRequestSchema().safeParse(onDisk(raw)).success, key).toBe(false);
		}
	});

	it(`accepts an input exactly ${MAX_INPUT_DEPTH} levels deep, and a hostile 100k-deep one is refused without a stack overflow`, () => {
		expect(
			forwardRequestSchema().safeParse(onDisk(makeRequest({ input: nested(MAX_INPUT_DEPTH) }))).success,
		).toBe(true);
		const depth = 100_000;
		const text = `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`;
		const raw = { ...makeRequest(), input: JSON.parse(text) as unknown };
		expect(forwardRequestSchema().safeParse(raw).success).toBe(false);
	});
});

describe("forward response schema", () => {
	it("accepts a valid response and tolerates unknown fields", () => {
		const response = validResponse();
		expect(forwardResponseSchema().safeParse(onDisk(response)).data).toEqual(response);
		expect(forwardResponseSchema().safeParse(onDisk({ ...response, signedBy: "future" })).success).toBe(true);
		const { reason: _reason, ...withoutReason } = response;
		expect(forwardResponseSchema().safeParse(onDisk(withoutReason)).success).toBe(true);
	});

	const malformed: [string, Record<string, unknown>][] = [
		["an unknown decision", { decision: "maybe" }],
		["an unknown scope", { scope: "forever" }],
		["a lowercase request id", { requestId: newRequestId().toLowerCase() }],
		["a bad hash", { actionHash: "z".repeat(64) }],
		["another protocol", { protocol: "pi-permission-hub/0" }],
		["grants that are not an array", { grants: {} }],
		["a responder over 256 characters", { responderSessionId: "r".repeat(257) }],
		["a timestamp that is a number", { respondedAt: Date.now() }],
	];
	for (const [what, override] of malformed) {
		it(`rejects ${what}`, () => {
			expect(forwardResponseSchema().safeParse(onDisk({ ...validResponse(), ...override })).success).toBe(
				false,
			);
		});
	}

	it("rejects a response missing any required field", () => {
		for (const key of [
			"protocol",
			"requestId",
			"actionHash",
			"decision",
			"scope",
			"grants",
			"responderSessionId",
			"respondedAt",
		]) {
			const raw: Record<string, unknown> = { ...validResponse() };
			delete raw[key];
			expect(forwardResponseSchema().safeParse(onDisk(raw)).success, key).toBe(false);
		}
	});
});
