import { describe, expect, it } from "vitest";
import { newRequestId, REQUEST_ID } from "../../src/hub/protocol.ts";
import { waitUntil } from "./hub-fixture.ts";

describe("newRequestId", () => {
	it("is 26 Crockford characters that the protocol accepts", () => {
		for (let i = 0; i < 1000; i++) {
			const id = newRequestId();
			expect(id).toHaveLength(26);
			expect(id).toMatch(REQUEST_ID);
			expect(id).not.toMatch(/[ILOU]/);
		}
	});

	it("sorts by creation time: a later millisecond sorts after, whatever the random tail", () => {
		const base = Date.UTC(2025, 5, 1);
		const times = [0, 1, 2, 31, 32, 33, 1023, 1024, 60_000, 86_400_000, 10 * 365 * 86_400_000];
		const ids = times.map((offset) => newRequestId(base + offset));
		expect([...ids].sort()).toEqual(ids);
		// The time prefix encodes the millisecond exactly (10 characters cover the next ~35,000 years).
		const prefixes = new Set(times.map((offset) => newRequestId(base + offset).slice(0, 10)));
		expect(prefixes.size).toBe(times.length);
		expect(newRequestId(base).slice(0, 10)).toBe(newRequestId(base).slice(0, 10));
	});

	it("ids generated over time list oldest first", async () => {
		const ids: string[] = [];
		for (let i = 0; i < 5; i++) {
			ids.push(newRequestId());
			const made = Date.now();
			await waitUntil("a later millisecond", () => Date.now() > made);
		}
		expect([...ids].sort()).toEqual(ids);
	});

	it("is unique over 100,000 ids made in the same few milliseconds", () => {
		const ids = new Set<string>();
		const now = Date.now();
		for (let i = 0; i < 100_000; i++) ids.add(newRequestId(now));
		expect(ids.size).toBe(100_000);
	});

	it("spreads the random tail over the whole alphabet (no modulo bias toward some characters)", () => {
		const counts = new Map<string, number>();
		for (let i = 0; i < 20_000; i++) {
			for (const c of newRequestId().slice(10)) counts.set(c, (counts.get(c) ?? 0) + 1);
		}
		expect(counts.size).toBe(32);
		const expected = (20_000 * 16) / 32;
		for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.1);
	});
});
