import { lazySchema } from "../vocabulary/lazy-schema.ts";
import * as z from "../vocabulary/zod.ts";
import { sanitizeLabel } from "./sanitize-label.ts";
import { safeShownLabel, shownOrClaimed } from "./shown-name.ts";

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
			/**
			 * How each hop of `path` is shown to a human (adr/0025): the agent name, a guess marked `?`, or a stable
			 * id. Same length as `path`; absent where nobody worked it out (older lines, CLI checks).
			 */
			readonly shown?: readonly string[];
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
			return `subagent ${shownPath(origin).join(" ← ")}`;
		case "ci":
			return `ci (${origin.provider ?? "unknown provider"})`;
		default:
			return origin.kind;
	}
}

/** Each hop as a human is shown it: the worked-out labels when they fit the path, else the claimed names. */
export function shownPath(origin: Extract<Origin, { kind: "subagent" }>): readonly string[] {
	return shownOrClaimed(origin.path, origin.shown).map(safeShownLabel);
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
			name: z.string().check(z.maxLength(256)),
			depth: z.int().check(z.nonnegative()),
			path: z.readonly(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(64))),
			shown: z.optional(z.readonly(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(64)))),
		}),
		z.object({ kind: z.literal("headless") }),
		z.object({ kind: z.literal("ci"), provider: z.nullable(z.string().check(z.maxLength(64))) }),
	]),
);

export interface SubagentClaim {
	/** Caller-claimed agent name (sanitized here). */
	readonly name: string;
	/** Agent names from the root down to this session. */
	readonly path: readonly string[];
	/** How each hop of `path` is shown (adr/0025), when worked out. */
	readonly shown?: readonly string[];
}

export interface OriginInputs {
	/** Set when this session was found to be a subagent (hub markers, launcher variables, in-process registry). */
	readonly subagent: SubagentClaim | null;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly hasUI: boolean;
}

const MAX_PATH = 32;

/**
 * Most specific first: a subagent is a subagent even in CI; CI before the UI check because a CI runner that
 * happens to allocate a terminal is still CI; then a session with a UI has a human at it, else it is headless.
 */
export function resolveOrigin(inputs: OriginInputs): Origin {
	if (inputs.subagent) {
		const name = sanitizeLabel(inputs.subagent.name) || "unnamed";
		const claimed = inputs.subagent.path;
		const path = claimed.slice(-MAX_PATH).map((label) => sanitizeLabel(label) || "unnamed");
		const endsWithName = path.length > 0 && path[path.length - 1] === name;
		// Depth counts every claimed hop; only the labels kept are capped (the nearest MAX_PATH, this one last).
		const hops = claimed.length + (endsWithName ? 0 : 1) - 1;
		const fullPath = endsWithName ? path : [...path, name].slice(-MAX_PATH);
		const { shown } = inputs.subagent;
		// Kept only when it labels exactly the claimed hops: a label must never slide onto another hop.
		const labels =
			endsWithName && shown && shown.length === claimed.length
				? { shown: shown.slice(-MAX_PATH).map(safeShownLabel) }
				: {};
		return { kind: "subagent", name, depth: Math.max(1, hops), path: fullPath, ...labels };
	}
	const ci = detectCi(inputs.env);
	if (ci.ci) return { kind: "ci", provider: ci.provider };
	return inputs.hasUI ? { kind: "human" } : { kind: "headless" };
}

/**
 * CI detection from the variables providers set. The tag on the right is ours and stable; the variable on the
 * left is the provider's. Caller-claimed like every origin signal.
 */
const PROVIDERS: readonly { readonly variable: string; readonly provider: string }[] = [
	{ variable: "GITHUB_ACTIONS", provider: "github-actions" },
	{ variable: "GITLAB_CI", provider: "gitlab-ci" },
	{ variable: "BUILDKITE", provider: "buildkite" },
	{ variable: "CIRCLECI", provider: "circleci" },
	{ variable: "JENKINS_URL", provider: "jenkins" },
	{ variable: "TRAVIS", provider: "travis-ci" },
	{ variable: "TF_BUILD", provider: "azure-pipelines" },
	{ variable: "BITBUCKET_BUILD_NUMBER", provider: "bitbucket-pipelines" },
	{ variable: "TEAMCITY_VERSION", provider: "teamcity" },
	{ variable: "DRONE", provider: "drone-ci" },
	{ variable: "CODEBUILD_BUILD_ID", provider: "aws-codebuild" },
];

export type CiDetection = { readonly ci: false } | { readonly ci: true; readonly provider: string | null };

export function detectCi(env: Readonly<Record<string, string | undefined>>): CiDetection {
	for (const { variable, provider } of PROVIDERS) {
		if (isSet(env[variable])) return { ci: true, provider };
	}
	if (isTruthy(env.CI)) return { ci: true, provider: null };
	return { ci: false };
}

function isSet(value: string | undefined): boolean {
	return value !== undefined && value.trim() !== "" && value.trim().toLowerCase() !== "false";
}

function isTruthy(value: string | undefined): boolean {
	if (value === undefined) return false;
	const v = value.trim().toLowerCase();
	return v !== "" && v !== "0" && v !== "false" && v !== "no";
}
