import { describe, expect, it } from "vitest";
import { z } from "zod";
import { lazySchema } from "../../src/vocabulary/lazy-schema.ts";

describe("lazySchema", () => {
	it("builds nothing until first asked, then once, and hands back that same schema", () => {
		let builds = 0;
		const pointSchema = lazySchema(() => {
			builds++;
			return z.object({ x: z.number(), y: z.number() });
		});
		expect(builds).toBe(0);
		const first = pointSchema();
		expect(builds).toBe(1);
		expect(pointSchema()).toBe(first);
		expect(builds).toBe(1);
		expect(first.safeParse({ x: 1, y: 2 }).success).toBe(true);
		expect(first.safeParse({ x: "1", y: 2 }).success).toBe(false);
	});

	it("lets a schema refer to itself through its getter", () => {
		type Tree = { readonly children: readonly Tree[] };
		const treeSchema = lazySchema(
			(): z.ZodType<Tree> => z.lazy(() => z.object({ children: z.array(treeSchema()) })),
		);
		expect(treeSchema().safeParse({ children: [{ children: [] }] }).success).toBe(true);
		expect(treeSchema().safeParse({ children: [{ children: [1] }] }).success).toBe(false);
	});
});
