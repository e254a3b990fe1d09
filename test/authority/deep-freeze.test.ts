import { describe, expect, it } from "vitest";
import { deepFreeze } from "../../src/authority/run-authorizer-chain.ts";

describe("deepFreeze", () => {
	it("freezes an edit tool input down to each edit, so what runs is what was checked", () => {
		const input = {
			path: "src/a.ts",
			edits: [
				{ oldText: "a", newText: "b" },
				{ oldText: "c", newText: "d" },
			],
		};
		deepFreeze(input);
		expect(Object.isFrozen(input)).toBe(true);
		expect(Object.isFrozen(input.edits)).toBe(true);
		for (const edit of input.edits) expect(Object.isFrozen(edit)).toBe(true);
	});

	it("a write to the frozen input throws in strict mode (this module is strict)", () => {
		const input: { command: string; nested: { list: string[] }; edits: { newText: string }[] } = {
			command: "ls",
			nested: { list: ["a"] },
			edits: [{ newText: "x" }],
		};
		deepFreeze(input);
		expect(() => {
			input.command = "rm -rf /";
		}).toThrow(TypeError);
		expect(() => {
			input.nested.list.push("b");
		}).toThrow(TypeError);
		expect(() => {
			const [edit] = input.edits;
			if (edit) edit.newText = "evil";
		}).toThrow(TypeError);
		expect(() => {
			input.edits.splice(0, 1);
		}).toThrow(TypeError);
		const deletable: { command?: string } = input;
		expect(() => {
			delete deletable.command;
		}).toThrow(TypeError);
		expect(input).toEqual({ command: "ls", nested: { list: ["a"] }, edits: [{ newText: "x" }] });
	});

	it("freezes symbol-keyed and non-enumerable properties too", () => {
		const key = Symbol("k");
		const hidden = { value: 1 };
		const input = { [key]: { inner: true } };
		Object.defineProperty(input, "hidden", { value: hidden, enumerable: false });
		deepFreeze(input);
		expect(Object.isFrozen(input[key])).toBe(true);
		expect(Object.isFrozen(hidden)).toBe(true);
	});

	it("leaves primitives and null alone, and handles shared and already-frozen parts", () => {
		for (const value of [null, undefined, 1, "s", true]) expect(() => deepFreeze(value)).not.toThrow();
		const shared = { x: 1 };
		const input = { a: shared, b: shared, c: Object.freeze({ d: { e: 1 } }) };
		deepFreeze(input);
		expect(Object.isFrozen(shared)).toBe(true);
		// An already-frozen part is skipped, its children too (documented behaviour).
		expect(Object.isFrozen(input.c.d)).toBe(false);
	});

	it("terminates on a cyclic object graph", () => {
		const a: { self?: unknown; list: unknown[] } = { list: [] };
		a.self = a;
		a.list.push(a);
		deepFreeze(a);
		expect(Object.isFrozen(a)).toBe(true);
		expect(Object.isFrozen(a.list)).toBe(true);
	});
});
