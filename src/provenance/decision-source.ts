import { lazySchema } from "../vocabulary/lazy-schema.ts";
import { PERMISSION_MODES, type PermissionMode } from "../vocabulary/permission-mode.ts";
import * as z from "../vocabulary/zod.ts";

/**
 * DecisionSource: who or what decided, recorded where the decision was made. A forwarded decision nests the
 * responder's own source, one frame per hop, so the root's answer reaches a grandchild with the whole chain.
 */

/** `guard`: a path the gate guards for itself (never a config rule: adr/0014). */
const RULE_SURFACES = [
	"tool",
	"command",
	"read",
	"write",
	"path",
	"outside-cwd",
	"tier",
	"agent",
	"guard",
] as const;
export type RuleSurface = (typeof RULE_SURFACES)[number];

/** Where a rule is written. */
export interface RuleLocation {
	/** Absolute config file path, or `built-in` for the defaults. */
	readonly file: string;
	/** JSON path inside the file, e.g. `rules[3]` or `tiers.write`. */
	readonly jsonPath: string;
	readonly line?: number;
}

/** Where a human decided: at a dialog, with the CLI, or by typing the command themselves (`!` in pi). */
const USER_SURFACES = ["dialog", "cli", "typed"] as const;
export type UserSurface = (typeof USER_SURFACES)[number];

function isUserSurface(value: unknown): value is UserSurface {
	return USER_SURFACES.some((surface) => surface === value);
}

export type DecisionSource =
	| {
			readonly kind: "user";
			readonly via: UserSurface;
			readonly verdict: "allow" | "deny";
			/** How long the answer lives: this call only, or a grant recorded for later calls. */
			/** `always`: they also saved a rule (adr/0018). */
			readonly scope: "once" | "session" | "subagent" | "tree" | "always";
			readonly reason?: string;
			/**
			 * Set when a subagent asked its own human because its parent could not be asked: why (adr/0027). The
			 * human who answered is the one at this subagent's UI, not the parent's.
			 */
			readonly parentUnreachable?: string;
	  }
	| {
			readonly kind: "authorizer";
			readonly link: string;
			readonly verdict: "allow" | "deny";
			readonly reason?: string;
	  }
	| {
			readonly kind: "rule";
			readonly surface: RuleSurface;
			readonly pattern: string;
			readonly action: "allow" | "ask" | "deny" | "auto";
			/** The rule's location; the field keeps its name because audit logs and other sessions read it. */
			readonly origin: RuleLocation;
			readonly reason?: string;
			/** For a rule a human saved from a dialog: when (adr/0018). */
			readonly saved?: string;
	  }
	| {
			readonly kind: "session_grant";
			readonly grantId: string;
			readonly surface: string;
			readonly pattern: string;
			readonly scope: "session" | "subagent" | "tree";
	  }
	| {
			readonly kind: "parked_approval";
			readonly requestId: string;
			/**
			 * What settled the parked request: a human (at a dialog, with the CLI), or what the serving session
			 * decided with for them (an authorizer link, a rule, a whole-tree grant, a hop further up).
			 */
			readonly approvedBy: DecisionSource;
	  }
	| { readonly kind: "unavailable"; readonly reason: string }
	| { readonly kind: "gate_error"; readonly reason: string }
	/** The session's permission mode decided in place of a human, or refused more (adr/0023). */
	| { readonly kind: "mode"; readonly mode: PermissionMode }
	| {
			readonly kind: "forwarded";
			readonly responderSessionId: string;
			/** The responder's own source; null when it sent none we could read (the hop is still a fact). */
			readonly decision: DecisionSource | null;
	  };

/** A source that decided itself, not a forwarding hop. */
export type FlatDecisionSource = Exclude<DecisionSource, { kind: "forwarded" }>;

/** The longest text a DecisionSource field may carry; the reader rejects longer ones, so writers cut to it. */
export const MAX_SOURCE_TEXT = 2000;

/**
 * Deeper chains than this are not a real subagent tree; refusing them bounds work on hostile input. Counted
 * over every nesting frame: forwarding hops and the approval a parked approval carries.
 */
export const MAX_FORWARD_DEPTH = 16;

/**
 * The reader's schema, typed as a schema of DecisionSource: anything it accepts must be a DecisionSource. The
 * type is written out above rather than inferred from it, because the inferred one loses its `readonly`s and,
 * in the declarations published for other extensions, is cut off to `any` two hops down the recursion.
 */
const decisionSourceSchema = lazySchema((): z.ZodMiniType<DecisionSource> => {
	const text = z.string().check(z.maxLength(MAX_SOURCE_TEXT));
	const userSurface = z.enum(USER_SURFACES);
	const union = z.discriminatedUnion("kind", [
		z.object({
			kind: z.literal("user"),
			via: userSurface,
			verdict: z.enum(["allow", "deny"]),
			scope: z.enum(["once", "session", "subagent", "tree", "always"]),
			reason: z.optional(text),
			parentUnreachable: z.optional(text),
		}),
		z.object({
			kind: z.literal("authorizer"),
			link: text,
			verdict: z.enum(["allow", "deny"]),
			reason: z.optional(text),
		}),
		z.object({
			kind: z.literal("rule"),
			surface: z.enum(RULE_SURFACES),
			pattern: text,
			action: z.enum(["allow", "ask", "deny", "auto"]),
			origin: z.object({ file: text, jsonPath: text, line: z.optional(z.int().check(z.nonnegative())) }),
			reason: z.optional(text),
			saved: z.optional(text),
		}),
		z.object({
			kind: z.literal("session_grant"),
			grantId: text,
			surface: text,
			pattern: text,
			scope: z.enum(["session", "subagent", "tree"]),
		}),
		z.object({
			kind: z.literal("parked_approval"),
			requestId: text,
			get approvedBy() {
				return decisionSourceSchema();
			},
		}),
		z.object({ kind: z.literal("unavailable"), reason: text }),
		z.object({ kind: z.literal("gate_error"), reason: text }),
		z.object({ kind: z.literal("mode"), mode: z.enum(PERMISSION_MODES) }),
		z.object({
			kind: z.literal("forwarded"),
			responderSessionId: text,
			get decision() {
				return z.nullable(decisionSourceSchema());
			},
		}),
	]);
	return z.pipe(z.transform(upgradeParkedApproval), union);
});

/** A human's answer for this one call only, at `via`; a reason they gave is capped to what a source may carry. */
export function userOnce(
	via: UserSurface,
	verdict: "allow" | "deny",
	reason?: string,
): Extract<DecisionSource, { kind: "user" }> {
	return {
		kind: "user",
		via,
		verdict,
		scope: "once",
		...(reason === undefined ? {} : { reason: capSourceText(reason) }),
	};
}

/**
 * Before the parked answer's format 2 (adr/0006) a parked approval named only the surface a human used,
 * `approvedVia`: such a frame (older audit lines, an older parent's response) reads as that human's allow, which
 * is all it ever claimed. Anything else passes through unchanged, for the schema to judge.
 */
function upgradeParkedApproval(value: unknown): unknown {
	if (typeof value !== "object" || value === null) return value;
	if (Reflect.get(value, "kind") !== "parked_approval" || Reflect.get(value, "approvedBy") !== undefined) {
		return value;
	}
	const via: unknown = Reflect.get(value, "approvedVia");
	// A surface that is none of a human's leaves the frame without its approver, for the schema to reject.
	if (!isUserSurface(via)) return value;
	const approvedBy = userOnce(via, "allow");
	return { kind: "parked_approval", requestId: Reflect.get(value, "requestId"), approvedBy };
}

/**
 * Narrow untrusted data (read from an inbox file or the audit log) to a DecisionSource.
 * All-or-nothing: one malformed frame anywhere rejects the whole chain. Never throws.
 */
export function readDecisionSource(value: unknown): DecisionSource | null {
	try {
		// At most MAX_FORWARD_DEPTH nesting frames, whether the innermost carries a source or null.
		if (nestingFrames(value) > MAX_FORWARD_DEPTH) return null;
		const parsed = decisionSourceSchema().safeParse(value);
		return parsed.success ? parsed.data : null;
	} catch {
		// Only a non-JSON value (a getter or proxy that throws) gets here; it is as unreadable as a bad frame.
		return null;
	}
}

/**
 * The frames of `value` that nest another source (a forwarding hop, a parked approval), counted before the
 * schema recurses through them and no further than one past the cap: a hostile (or cyclic) chain costs a few
 * steps here, never a deep recursion there.
 */
function nestingFrames(value: unknown): number {
	let frames = 0;
	let current = value;
	while (frames <= MAX_FORWARD_DEPTH && typeof current === "object" && current !== null) {
		const kind: unknown = Reflect.get(current, "kind");
		if (kind === "forwarded") current = Reflect.get(current, "decision");
		else if (kind === "parked_approval") current = Reflect.get(current, "approvedBy");
		else break;
		frames++;
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

/**
 * Whether a human made this decision: at a dialog, with the CLI, by typing the command, or by approving the
 * parked request it used up. A parked approval that a link, rule or grant settled is not a human's.
 */
export function humanDecided(source: DecisionSource): boolean {
	const decisive = innermostSource(source).source;
	if (decisive?.kind === "parked_approval") return humanDecided(decisive.approvedBy);
	return decisive?.kind === "user";
}

/** Cut `text` to MAX_SOURCE_TEXT UTF-16 units without leaving half a surrogate pair at the end. */
export function capSourceText(text: string): string {
	if (text.length <= MAX_SOURCE_TEXT) return text;
	const cut = text.slice(0, MAX_SOURCE_TEXT);
	const last = cut.charCodeAt(cut.length - 1);
	return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
