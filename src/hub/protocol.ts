/**
 * The hub's wire format (version 1), see adr/0006-hub-protocol.md. Both files are written by one process
 * and read by another, so every read goes through these schemas: unknown optional fields are tolerated
 * (a newer peer may add them), a malformed required field rejects the whole file.
 */
import { z } from "zod";
import { originSchema } from "../origin/origin.ts";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import { TIERS } from "../vocabulary/tier.ts";

export const PROTOCOL = "pi-permission-hub/1";

/** 26 characters, time-sortable then random: a file name that cannot carry a path. */
export const REQUEST_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const ACTION_HASH = /^[0-9a-f]{64}$/;

/** Larger files are refused unread: a request is a few KiB; this bounds the work a hostile file can cause. */
export const MAX_REQUEST_BYTES = 256 * 1024;
export const MAX_RESPONSE_BYTES = 64 * 1024;
/**
 * Nesting levels allowed below a request's `input`. Real tool inputs are a few levels deep; a deeper one is
 * refused at the inbox, so no recursive code on the deciding side (canonicalization, policy) meets it.
 */
export const MAX_INPUT_DEPTH = 64;

const text = (max: number) => z.string().max(max);

const agentFrame = lazySchema(() =>
	z.object({
		/** Sanitized agent label (caller-claimed). */
		agent: text(256),
		sessionId: text(256),
	}),
);

const askingPart = lazySchema(() =>
	z.object({
		tier: z.enum(TIERS),
		why: text(2000),
		command: text(8192).optional(),
		paths: z
			.array(z.object({ access: z.enum(["read", "write"]), path: text(4096) }))
			.max(64)
			.optional(),
	}),
);

const suggestion = lazySchema(() =>
	z.object({
		surface: z.enum(["tool", "command", "read", "write", "path"]),
		pattern: text(4096),
		/** The grant never covers a part riskier than the one it was offered for. */
		limit: z.object({ tier: z.enum(TIERS), outsideCwd: z.boolean() }),
	}),
);

export const forwardRequestSchema = lazySchema(() =>
	z.object({
		protocol: z.literal(PROTOCOL),
		id: z.string().regex(REQUEST_ID),
		actionHash: z.string().regex(ACTION_HASH),
		tool: text(256),
		/** Canonical input, so the parent can apply its own deny rules to the same action. */
		input: z
			.record(z.string(), z.unknown())
			.refine(
				(input) => nestedWithin(input, MAX_INPUT_DEPTH),
				`nested deeper than ${MAX_INPUT_DEPTH} levels`,
			),
		cwd: text(4096),
		tier: z.enum(TIERS),
		/** The parts that asked, and why (the child's policy). */
		asking: z.array(askingPart()).min(1).max(64),
		why: text(4000),
		/** Redacted, for display. */
		preview: text(8192),
		/** The asker first, then each hop up: who is asking, through whom. */
		chain: z.array(agentFrame()).min(1).max(32),
		/** Agent names root-first, e.g. ["root", "planner", "worker"]. */
		path: z.array(text(256)).min(1).max(33),
		requesterPid: z.number().int().positive(),
		/**
		 * Who asked, as the asking session's gate resolved it (caller-claimed labels, shown and matched by agent
		 * rules only where the request is this user's own parked one). Optional: written since 0.2.
		 */
		origin: originSchema().optional(),
		createdAt: z.iso.datetime(),
		expiresAt: z.iso.datetime(),
		suggestions: z.array(suggestion()).max(64),
		/** False when the child's own ask rule forced the ask: no grant may be offered for it. */
		grantable: z.boolean(),
		unanswered: z.enum(["wait", "defer", "deny"]),
	}),
);
export type ForwardRequest = z.infer<ReturnType<typeof forwardRequestSchema>>;

/** Stops at the first container below the limit, so hostile depth costs at most `levels` frames. */
function nestedWithin(value: unknown, levels: number): boolean {
	if (typeof value !== "object" || value === null) return true;
	if (levels < 0) return false;
	for (const child of Object.values(value)) if (!nestedWithin(child, levels - 1)) return false;
	return true;
}

export const forwardResponseSchema = lazySchema(() =>
	z.object({
		protocol: z.literal(PROTOCOL),
		requestId: z.string().regex(REQUEST_ID),
		/** Must equal the request's hash: the child never obeys an answer about another action. */
		actionHash: z.string().regex(ACTION_HASH),
		decision: z.enum(["allow", "deny", "parked"]),
		/** For an allow: this call only, grants for the asking subagent, or a grant the parent holds for its whole tree. */
		scope: z.enum(["once", "subagent", "tree"]),
		/** Patterns the child records for itself when `scope` is `subagent`. */
		grants: z.array(suggestion()).max(64),
		reason: text(4000).optional(),
		/** The deciding hop's DecisionSource, read with the depth-capped reader (not this schema). */
		source: z.unknown(),
		responderSessionId: text(256),
		respondedAt: z.iso.datetime(),
	}),
);
export type ForwardResponse = z.infer<ReturnType<typeof forwardResponseSchema>>;
