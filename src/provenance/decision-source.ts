import { z } from "zod";
import { lazySchema } from "../vocabulary/lazy-schema.ts";

/**
 * DecisionSource: who or what decided, recorded where the decision was made. A forwarded decision nests the
 * responder's own source, one frame per hop, so the root's answer reaches a grandchild with the whole chain.
 *
 * The types are inferred from the schema that reads a source back (from an inbox file or the audit log), so
 * what is written and what is read cannot drift apart.
 */

/** The longest text a DecisionSource field may carry; the reader rejects longer ones, so writers cut to it. */
export const MAX_SOURCE_TEXT = 2000;

/** Deeper chains than this are not a real subagent tree; refusing them bounds work on hostile input. */
export const MAX_FORWARD_DEPTH = 16;

const text = lazySchema(() => z.string().max(MAX_SOURCE_TEXT));

/** Where a human decided: at a dialog, with the CLI, or by typing the command themselves (`!` in pi). */
const userSurfaceSchema = lazySchema(() => z.enum(["dialog", "cli", "typed"]));
export type UserSurface = z.infer<ReturnType<typeof userSurfaceSchema>>;

/** `guard`: a path the gate guards for itself (never a config rule: adr/0014). */
const ruleSurfaceSchema = lazySchema(() =>
	z.enum(["tool", "command", "read", "write", "path", "outside-cwd", "tier", "agent", "guard"]),
);
export type RuleSurface = z.infer<ReturnType<typeof ruleSurfaceSchema>>;

/** Where a rule is written. */
const ruleLocationSchema = lazySchema(() =>
	z.object({
		/** Absolute config file path, or `built-in` for the defaults. */
		file: text(),
		/** JSON path inside the file, e.g. `rules[3]` or `tiers.write`. */
		jsonPath: text(),
		line: z.number().int().nonnegative().optional(),
	}),
);
export type RuleLocation = z.infer<ReturnType<typeof ruleLocationSchema>>;

const decisionSourceSchema = lazySchema(() =>
	z.discriminatedUnion("kind", [
		z.object({
			kind: z.literal("user"),
			via: userSurfaceSchema(),
			verdict: z.enum(["allow", "deny"]),
			/** How long the answer lives: this call only, or a grant recorded for later calls. */
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
			surface: ruleSurfaceSchema(),
			pattern: text(),
			action: z.enum(["allow", "ask", "deny", "auto"]),
			/** The rule's location; the field keeps its name because audit logs and other sessions read it. */
			origin: ruleLocationSchema(),
			reason: text().optional(),
		}),
		z.object({
			kind: z.literal("session_grant"),
			grantId: text(),
			surface: text(),
			pattern: text(),
			scope: z.enum(["session", "subagent", "tree"]),
		}),
		z.object({ kind: z.literal("parked_approval"), requestId: text(), approvedVia: userSurfaceSchema() }),
		z.object({ kind: z.literal("unavailable"), reason: text() }),
		z.object({ kind: z.literal("gate_error"), reason: text() }),
		z.object({
			kind: z.literal("forwarded"),
			responderSessionId: text(),
			/** The responder's own source; null when it sent none we could read (the hop is still a fact). */
			get decision() {
				return decisionSourceSchema().nullable();
			},
		}),
	]),
);

export type DecisionSource = z.infer<ReturnType<typeof decisionSourceSchema>>;
export type DecisionSourceKind = DecisionSource["kind"];
/** A source that decided itself, not a forwarding hop. */
export type FlatDecisionSource = Exclude<DecisionSource, { kind: "forwarded" }>;

/**
 * Narrow untrusted data (read from an inbox file or the audit log) to a DecisionSource.
 * All-or-nothing: one malformed frame anywhere rejects the whole chain. Never throws.
 */
export function readDecisionSource(value: unknown): DecisionSource | null {
	try {
		// At most MAX_FORWARD_DEPTH hops, whether the innermost hop carries a source or null.
		if (forwardingFrames(value) > MAX_FORWARD_DEPTH) return null;
		const parsed = decisionSourceSchema().safeParse(value);
		return parsed.success ? parsed.data : null;
	} catch {
		// Only a non-JSON value (a getter or proxy that throws) gets here; it is as unreadable as a bad frame.
		return null;
	}
}

/**
 * The frames of `value` that claim to forward, counted before the schema recurses through them and no further
 * than one past the cap: a hostile (or cyclic) chain costs a few steps here, never a deep recursion there.
 */
function forwardingFrames(value: unknown): number {
	let frames = 0;
	let current = value;
	while (
		frames <= MAX_FORWARD_DEPTH &&
		typeof current === "object" &&
		current !== null &&
		Reflect.get(current, "kind") === "forwarded"
	) {
		frames++;
		current = Reflect.get(current, "decision");
	}
	return frames;
}

export interface InnermostSource {
	/** The hop that actually decided; null when the last hop sent no source we could read. */
	readonly source: FlatDecisionSource | null;
	/** Forwarding hops on the way (0: decided in the session that recorded it). */
	readonly hops: number;
}

/** A forwarded chain ends in the source of the hop that actually decided. */
export function innermostSource(source: DecisionSource): InnermostSource {
	let current: DecisionSource | null = source;
	let hops = 0;
	while (current?.kind === "forwarded") {
		current = current.decision;
		hops++;
	}
	return { source: current, hops };
}

/** Cut `text` to MAX_SOURCE_TEXT UTF-16 units without leaving half a surrogate pair at the end. */
export function capSourceText(text: string): string {
	if (text.length <= MAX_SOURCE_TEXT) return text;
	const cut = text.slice(0, MAX_SOURCE_TEXT);
	const last = cut.charCodeAt(cut.length - 1);
	return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
