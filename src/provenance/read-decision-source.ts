import { z } from "zod";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import { type DecisionSource, MAX_SOURCE_TEXT } from "./decision-source.ts";

/** Deeper chains than this are not a real subagent tree; refusing them bounds work on hostile input. */
export const MAX_FORWARD_DEPTH = 16;

const text = lazySchema(() => z.string().max(MAX_SOURCE_TEXT));
const userSurface = lazySchema(() => z.enum(["dialog", "cli", "typed"]));

const ruleOrigin = lazySchema(() =>
	z.object({
		file: text(),
		jsonPath: text(),
		line: z.number().int().nonnegative().optional(),
	}),
);

const flatSource = lazySchema(() =>
	z.discriminatedUnion("kind", [
		z.object({
			kind: z.literal("user"),
			via: userSurface(),
			verdict: z.enum(["allow", "deny"]),
			scope: z.enum(["once", "session", "subagent", "tree"]),
			reason: text().optional(),
		}),
		z.object({
			kind: z.literal("authorizer"),
			link: text(),
			verdict: z.enum(["allow", "deny"]),
			reason: text().optional(),
		}),
		z.object({
			kind: z.literal("rule"),
			surface: z.enum(["tool", "command", "read", "write", "path", "outside-cwd", "tier", "agent", "guard"]),
			pattern: text(),
			action: z.enum(["allow", "ask", "deny", "auto"]),
			origin: ruleOrigin(),
			reason: text().optional(),
		}),
		z.object({
			kind: z.literal("session_grant"),
			grantId: text(),
			surface: text(),
			pattern: text(),
			scope: z.enum(["session", "subagent", "tree"]),
		}),
		z.object({ kind: z.literal("parked_approval"), requestId: text(), approvedVia: userSurface() }),
		z.object({ kind: z.literal("unavailable"), reason: text() }),
		z.object({ kind: z.literal("gate_error"), reason: text() }),
	]),
);

const forwardedFrame = lazySchema(() =>
	z.object({
		kind: z.literal("forwarded"),
		responderSessionId: text(),
		decision: z.unknown(),
	}),
);

/**
 * Narrow untrusted data (read from an inbox file or the audit log) to a DecisionSource.
 * All-or-nothing: one malformed frame anywhere rejects the whole chain. Never throws.
 */
export function readDecisionSource(value: unknown): DecisionSource | null {
	try {
		return readAtDepth(value, 0);
	} catch {
		// Only a non-JSON value (a getter or proxy that throws) gets here; it is as unreadable as a bad frame.
		return null;
	}
}

function readAtDepth(value: unknown, depth: number): DecisionSource | null {
	const frame = forwardedFrame().safeParse(value);
	if (frame.success) {
		// At most MAX_FORWARD_DEPTH hops, whether the innermost hop carries a source or null.
		if (depth >= MAX_FORWARD_DEPTH) return null;
		const inner = frame.data.decision;
		if (inner === null) {
			return { kind: "forwarded", responderSessionId: frame.data.responderSessionId, decision: null };
		}
		const decision = readAtDepth(inner, depth + 1);
		if (decision === null) return null;
		return { kind: "forwarded", responderSessionId: frame.data.responderSessionId, decision };
	}
	const flat = flatSource().safeParse(value);
	return flat.success ? flat.data : null;
}
