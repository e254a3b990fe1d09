import { beforeAll, describe, expect, it } from "vitest";
import { parseAuditLine } from "../../src/audit/audit-entry.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { bashParser, classifyBash } from "../classify/classify-fixture.ts";
import { auditEntry } from "./audit-fixture.ts";

const line = (value: unknown): string => JSON.stringify(value);

describe("parseAuditLine", () => {
	it("reads back a line the writer would write, unchanged", () => {
		const entry = auditEntry();
		expect(parseAuditLine(line(entry))).toEqual(entry);
	});

	it("accepts every origin kind, a null origin and the optional fields", () => {
		for (const origin of [
			{ kind: "human" },
			{ kind: "headless" },
			{ kind: "ci", provider: "github-actions" },
			{ kind: "ci", provider: null },
			null,
		] as const) {
			expect(parseAuditLine(line(auditEntry({ origin })))).not.toBeNull();
		}
		const full = auditEntry({
			outcome: "pending",
			requestId: "req-1",
			ceiling: { tier: "network-egress", reason: "CI needs npm" },
		});
		expect(parseAuditLine(line(full))).toEqual(full);
		const { reason: _reason, chain: _chain, ...minimal } = auditEntry({ outcome: "allow" });
		expect(parseAuditLine(line(minimal))).toEqual(minimal);
	});

	it("accepts a CRLF line end (the \\r is JSON whitespace)", () => {
		expect(parseAuditLine(`${line(auditEntry())}\r`)).toEqual(auditEntry());
	});

	it.each([
		["empty", ""],
		["not JSON", "{oops"],
		["half a line", line(auditEntry()).slice(0, 80)],
		["a JSON number", "42"],
		["JSON null", "null"],
		["a JSON array", "[]"],
		["a JSON string", '"entry"'],
	])("refuses %s", (_name, text) => {
		expect(parseAuditLine(text)).toBeNull();
	});

	it.each<[string, Record<string, unknown>]>([
		["another schema version", { v: 2 }],
		["an unknown event", { event: "login" }],
		["an unknown tier", { tier: "nuclear" }],
		["an unknown mode", { mode: "maybe" }],
		["an unknown outcome", { outcome: "perhaps" }],
		["a negative latency", { latencyMs: -1 }],
		["a latency that is a string", { latencyMs: "fast" }],
		["too many config files", { configFiles: Array.from({ length: 17 }, (_, i) => `/f${i}`) }],
		["an over-long session id", { sessionId: "s".repeat(257) }],
		["an unknown origin kind", { origin: { kind: "robot" } }],
		[
			"a subagent origin with a fractional depth",
			{ origin: { kind: "subagent", name: "w", depth: 1.5, path: [] } },
		],
		["a chain step with an unknown result", { chain: [{ link: "x", result: "maybe", ms: 1 }] }],
		[
			"a chain step with an over-long reason",
			{ chain: [{ link: "x", result: "error", reason: "r".repeat(2001), ms: 1 }] },
		],
		["a source that is not a DecisionSource", { source: { kind: "user", verdict: "allow" } }],
		["a missing source", { source: undefined }],
		["a source nested past the depth cap", { source: nestedSource(40) }],
	])("refuses an entry with %s", (_name, overrides) => {
		expect(parseAuditLine(line({ ...auditEntry(), ...overrides }))).toBeNull();
	});

	it("drops unknown fields and ignores a __proto__ key", () => {
		const text = line(auditEntry()).replace(/^\{/, '{"__proto__":{"polluted":true},"extra":"x",');
		const parsed = parseAuditLine(text);
		expect(parsed).toEqual(auditEntry());
		expect(parsed === null ? [] : Object.keys(parsed)).not.toContain("extra");
		expect(Reflect.get({}, "polluted")).toBeUndefined();
	});
});

function nestedSource(hops: number): unknown {
	let value: unknown = { kind: "gate_error", reason: "x" };
	for (let i = 0; i < hops; i++) value = { kind: "forwarded", responderSessionId: `s${i}`, decision: value };
	return value;
}

describe("parseAuditLine reads back what the gate writes", () => {
	let bash: BashParser;
	beforeAll(async () => {
		bash = await bashParser();
	});

	it("keeps an entry whose bash preview is the classifier's longest (cap plus its length note)", () => {
		const command = `echo ${"x".repeat(20_000)}`;
		const action = classifyBash(bash, command);
		expect(action.preview.length).toBeGreaterThan(8192);
		const entry = auditEntry({ preview: action.preview, actionHash: action.hash, tier: action.tier });
		expect(parseAuditLine(line(entry))).toEqual(entry);
	});

	it("keeps an entry whose block reason is longer than a few thousand characters", () => {
		const entry = auditEntry({ reason: `Blocked by pi-permission-hub: ${"r".repeat(6000)}` });
		expect(parseAuditLine(line(entry))).toEqual(entry);
	});
});
