import { detectCi } from "./ci-provider.ts";
import type { Origin } from "./origin.ts";
import { sanitizeLabel } from "./sanitize-label.ts";

export interface SubagentClaim {
	/** Caller-claimed agent name (sanitized here). */
	readonly name: string;
	/** Agent names from the root down to this session. */
	readonly path: readonly string[];
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
		return { kind: "subagent", name, depth: Math.max(1, hops), path: fullPath };
	}
	const ci = detectCi(inputs.env);
	if (ci.ci) return { kind: "ci", provider: ci.provider };
	return inputs.hasUI ? { kind: "human" } : { kind: "headless" };
}
