/**
 * The hub's wire format (version 1, adr/0006): where everything lives in an inbox, request ids, the request and
 * response files, `server.json`, and the variable through which a serving session tells the processes it
 * spawns where it is. Every file is written by one process and read by another, so every read goes through
 * these schemas: unknown optional fields are tolerated (a newer peer may add them), a malformed required field
 * rejects the whole file.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { originSchema } from "../origin/origin.ts";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import { TIERS } from "../vocabulary/tier.ts";
import * as z from "../vocabulary/zod.ts";
import { readInboxJson } from "./private-files.ts";

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

const text = (max: number) => z.string().check(z.maxLength(max));

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
		command: z.optional(text(8192)),
		paths: z.optional(
			z.array(z.object({ access: z.enum(["read", "write"]), path: text(4096) })).check(z.maxLength(64)),
		),
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
		id: z.string().check(z.regex(REQUEST_ID)),
		actionHash: z.string().check(z.regex(ACTION_HASH)),
		tool: text(256),
		/** Canonical input, so the parent can apply its own deny rules to the same action. */
		input: z
			.record(z.string(), z.unknown())
			.check(
				z.refine(
					(input) => nestedWithin(input, MAX_INPUT_DEPTH),
					`nested deeper than ${MAX_INPUT_DEPTH} levels`,
				),
			),
		cwd: text(4096),
		tier: z.enum(TIERS),
		/** The parts that asked, and why (the child's policy). */
		asking: z.array(askingPart()).check(z.minLength(1), z.maxLength(64)),
		why: text(4000),
		/** Redacted, for display. */
		preview: text(8192),
		/** The asker first, then each hop up: who is asking, through whom. */
		chain: z.array(agentFrame()).check(z.minLength(1), z.maxLength(32)),
		/** Agent names root-first, e.g. ["root", "planner", "worker"]. */
		path: z.array(text(256)).check(z.minLength(1), z.maxLength(33)),
		requesterPid: z.int().check(z.positive()),
		/**
		 * Who asked, as the asking session's gate resolved it (caller-claimed labels, shown and matched by agent
		 * rules only where the request is this user's own parked one). Optional: written since 0.2.
		 */
		origin: z.optional(originSchema()),
		createdAt: z.iso.datetime(),
		expiresAt: z.iso.datetime(),
		suggestions: z.array(suggestion()).check(z.maxLength(64)),
		/** False when the child's own ask rule forced the ask: no grant may be offered for it. */
		grantable: z.boolean(),
		/**
		 * True when the asker's own policy (a guarded path, an agents section, a missing sandbox) says only a human
		 * may answer: the receiver then lets no link, grant or permission mode answer it. It can only make the ask
		 * stricter, so it is trusted as sent; absent or false relaxes nothing the receiver decides itself. Optional:
		 * written after 0.2, and an older receiver that drops it decides as it always did (adr/0006).
		 */
		humanOnly: z.optional(z.boolean()),
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
		requestId: z.string().check(z.regex(REQUEST_ID)),
		/** Must equal the request's hash: the child never obeys an answer about another action. */
		actionHash: z.string().check(z.regex(ACTION_HASH)),
		decision: z.enum(["allow", "deny", "parked"]),
		/** For an allow: this call only, grants for the asking subagent, or a grant the parent holds for its whole tree. */
		scope: z.enum(["once", "subagent", "tree"]),
		/** Patterns the child records for itself when `scope` is `subagent`. */
		grants: z.array(suggestion()).check(z.maxLength(64)),
		reason: z.optional(text(4000)),
		/** The deciding hop's DecisionSource, read with the depth-capped reader (not this schema). */
		source: z.unknown(),
		responderSessionId: text(256),
		respondedAt: z.iso.datetime(),
	}),
);
export type ForwardResponse = z.infer<ReturnType<typeof forwardResponseSchema>>;

/**
 * Where everything of the hub lives, under the agent dir so parent and children (which share
 * PI_CODING_AGENT_DIR) meet without configuration:
 *
 *   <agentDir>/pi-permission-hub/inbox/<session id>/requests/<id>.json    written by children
 *   <agentDir>/pi-permission-hub/inbox/<session id>/responses/<id>.json   created once by the parent
 *   <agentDir>/pi-permission-hub/inbox/<session id>/claims/<id>           first server instance to claim serves
 *   <agentDir>/pi-permission-hub/inbox/<session id>/children/<id>.json    a gated child announcing itself
 *   <agentDir>/pi-permission-hub/inbox/<session id>/server.json           who serves this inbox (pid)
 */
export interface InboxLayout {
	readonly root: string;
	readonly requests: string;
	readonly responses: string;
	readonly claims: string;
	readonly children: string;
	readonly server: string;
}

/** Session ids are pi's (UUIDv7 or `--session-id` values); anything else is encoded so it stays one segment. */
export function inboxLayout(agentDir: string, sessionId: string): InboxLayout {
	const root = join(hubRoot(agentDir), "inbox", encodeURIComponent(sessionId));
	return inboxLayoutAt(root);
}

export function inboxLayoutAt(root: string): InboxLayout {
	return {
		root,
		requests: join(root, "requests"),
		responses: join(root, "responses"),
		claims: join(root, "claims"),
		children: join(root, "children"),
		server: join(root, "server.json"),
	};
}

export function hubRoot(agentDir: string): string {
	return join(agentDir, "pi-permission-hub");
}

export function requestFile(layout: InboxLayout, id: string): string {
	return join(layout.requests, `${id}.json`);
}

export function responseFile(layout: InboxLayout, id: string): string {
	return join(layout.responses, `${id}.json`);
}

/** Crockford base32: no I, L, O, U, so an id never reads as a word or a path. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A ULID-shaped id: 10 characters of millisecond time (so a listing sorts oldest first) and 16 of
 * randomness (80 bits: not guessable by another local process watching the directory).
 */
export function newRequestId(now: number = Date.now()): string {
	let time = "";
	let t = now;
	for (let i = 0; i < 10; i++) {
		time = ALPHABET.charAt(t % 32) + time;
		t = Math.floor(t / 32);
	}
	const random = randomBytes(16);
	let tail = "";
	for (const byte of random) tail += ALPHABET.charAt(byte % 32);
	return time + tail;
}

/** `server.json` in an inbox: who serves it. A child found by session id learns the pid to watch from here. */
export const serverInfoSchema = lazySchema(() =>
	z.object({
		protocol: z.literal(PROTOCOL),
		sessionId: z.string().check(z.maxLength(256)),
		pid: z.int().check(z.positive()),
		startToken: z.nullable(z.string().check(z.maxLength(64))),
		path: z.array(z.string().check(z.maxLength(256))).check(z.minLength(1), z.maxLength(32)),
		startedAt: z.iso.datetime(),
	}),
);
export type ServerInfo = z.infer<ReturnType<typeof serverInfoSchema>>;

export function readServerInfo(file: string): ServerInfo | null {
	return readInboxJson(file, 16 * 1024, serverInfoSchema());
}

/** Set by a serving session in its own process environment, so every process it spawns can find it. */
export const PARENT_ENV = "PI_PERMISSION_HUB_PARENT";

const parentLinkSchema = lazySchema(() =>
	z.object({
		v: z.literal(1),
		sessionId: z.string().check(z.minLength(1), z.maxLength(256)),
		/** The parent's inbox directory (absolute). */
		inbox: z.string().check(z.minLength(1), z.maxLength(4096)),
		pid: z.int().check(z.positive()),
		/** Agent labels from the root down to the parent itself. */
		path: z.array(z.string().check(z.maxLength(256))).check(z.minLength(1), z.maxLength(32)),
		/** How each of those hops is shown (adr/0025); optional, older parents do not write it. */
		shown: z.optional(z.array(z.string().check(z.maxLength(256))).check(z.minLength(1), z.maxLength(32))),
		/**
		 * The root's project (absolute): a child's "inside the project" never reaches beyond it (adr/0008). Only ever
		 * narrows what the child allows, so a forged one gains nothing; optional, older parents do not write it.
		 */
		project: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
	}),
);

export type ParentLink = z.infer<ReturnType<typeof parentLinkSchema>>;

export function serializeParentLink(link: ParentLink): string {
	return JSON.stringify(link);
}

/** Null for anything that is not a well-formed link (it is caller-controlled input like any variable). */
export function parseParentLink(value: string | undefined): ParentLink | null {
	if (!value || value.length > 16_384) return null;
	try {
		const parsed = parentLinkSchema().safeParse(JSON.parse(value));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}
