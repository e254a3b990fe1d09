import { z } from "zod";
import { lazySchema } from "../vocabulary/lazy-schema.ts";

/**
 * Who is asking. Every label here is caller-claimed (environment, launcher announcements) and sanitized before
 * use; it is an operator signal for policy and audit, never proof of identity.
 */
export type Origin =
	| { readonly kind: "human" }
	| {
			readonly kind: "subagent";
			readonly name: string;
			readonly depth: number;
			/** Agent names from the root down to this session, e.g. `["root", "planner", "worker"]`. */
			readonly path: readonly string[];
	  }
	| { readonly kind: "headless" }
	| { readonly kind: "ci"; readonly provider: string | null };

export const ORIGIN_KINDS = ["human", "subagent", "headless", "ci"] as const;
export type OriginKind = (typeof ORIGIN_KINDS)[number];

/** Kinds whose matcher may carry a `name` (the subagent name, the CI provider). */
export const NAMED_ORIGIN_KINDS: readonly OriginKind[] = ["subagent", "ci"];

/** The name an agent rule matches: the subagent name or the CI provider; null for payload-less kinds. */
export function originName(origin: Origin): string | null {
	switch (origin.kind) {
		case "subagent":
			return origin.name;
		case "ci":
			return origin.provider;
		default:
			return null;
	}
}

export function originLabel(origin: Origin): string {
	switch (origin.kind) {
		case "subagent":
			return `subagent ${origin.path.join(" ← ")}`;
		case "ci":
			return `ci (${origin.provider ?? "unknown provider"})`;
		default:
			return origin.kind;
	}
}

/** Who asked, in words a person recognizes as their own earlier run (or a subagent, or CI). */
export function originDescription(origin: Origin): string {
	switch (origin.kind) {
		case "headless":
			return "a print or JSON mode run (pi -p), where nobody could be asked";
		case "human":
			return "an interactive session";
		default:
			return originLabel(origin);
	}
}

/** An origin read from a file another process wrote (the audit log, a parked request); labels are length-capped. */
export const originSchema = lazySchema(() =>
	z.discriminatedUnion("kind", [
		z.object({ kind: z.literal("human") }),
		z.object({
			kind: z.literal("subagent"),
			name: z.string().max(256),
			depth: z.number().int().nonnegative(),
			path: z.array(z.string().max(256)).max(64).readonly(),
		}),
		z.object({ kind: z.literal("headless") }),
		z.object({ kind: z.literal("ci"), provider: z.string().max(64).nullable() }),
	]),
);
