/**
 * Input shapes of pi's built-in tools (as of pi 1.6). Known fields are checked strictly; extra fields are
 * tolerated because the built-in tools ignore them (they stay in the canonical input, so the hash covers them).
 */

import { lazySchema } from "../vocabulary/lazy-schema.ts";
import * as z from "../vocabulary/zod.ts";

export const bashInput = lazySchema(() =>
	z.looseObject({ command: z.string(), timeout: z.optional(z.number()) }),
);
export const readInput = lazySchema(() =>
	z.looseObject({
		path: z.string(),
		offset: z.optional(z.number()),
		limit: z.optional(z.number()),
	}),
);
export const writeInput = lazySchema(() => z.looseObject({ path: z.string(), content: z.string() }));
export const editInput = lazySchema(() =>
	z.looseObject({
		path: z.string(),
		edits: z.array(z.looseObject({ oldText: z.string(), newText: z.string() })).check(z.minLength(1)),
	}),
);
export const grepInput = lazySchema(() =>
	z.looseObject({
		pattern: z.string(),
		path: z.optional(z.string()),
		glob: z.optional(z.string()),
		ignoreCase: z.optional(z.boolean()),
		literal: z.optional(z.boolean()),
		context: z.optional(z.number()),
		limit: z.optional(z.number()),
	}),
);
export const findInput = lazySchema(() =>
	z.looseObject({
		pattern: z.string(),
		path: z.optional(z.string()),
		limit: z.optional(z.number()),
	}),
);
export const lsInput = lazySchema(() =>
	z.looseObject({ path: z.optional(z.string()), limit: z.optional(z.number()) }),
);

export const BUILT_IN_TOOLS = ["bash", "read", "write", "edit", "grep", "find", "ls"] as const;
export type BuiltInTool = (typeof BUILT_IN_TOOLS)[number];

export function isBuiltInTool(tool: string): tool is BuiltInTool {
	return (BUILT_IN_TOOLS as readonly string[]).includes(tool);
}
