import { type Origin, originName } from "../origin/origin.ts";
import type { AgentMatcher } from "./effective-policy.ts";

/** The first matcher for this origin's kind whose name (if it has one) equals the origin's name exactly. */
export function matchAgentRule(matchers: readonly AgentMatcher[], origin: Origin): AgentMatcher | null {
	for (const matcher of matchers) {
		if (matcher.kind !== origin.kind) continue;
		if (matcher.name === null || matcher.name === originName(origin)) return matcher;
	}
	return null;
}
