import type { ChainStep } from "../audit/audit-entry.ts";
import { runAuthorizerChain } from "../authority/run-authorizer-chain.ts";
import type { ClassifiedAction } from "../classify/action.ts";
import type { Origin } from "../origin/origin.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { GateDeps } from "./gate-deps.ts";

export interface ChainResult {
	/** The deciding link's verdict and its source, or null when no link decided. */
	readonly decided: {
		readonly verdict: "allow" | "deny";
		readonly link: string;
		readonly source: DecisionSource;
	} | null;
	readonly steps: readonly ChainStep[];
}

/** The enabled authorizer links, in order, for one ask (this session's own, or one a child forwarded). */
export async function runChainFor(
	action: ClassifiedAction,
	ask: { readonly origin: Origin; readonly why: string; readonly forwarded: boolean },
	policy: EffectivePolicy,
	deps: GateDeps,
): Promise<ChainResult> {
	const chain = await runAuthorizerChain(
		policy.authorizerChain,
		{
			tool: action.tool,
			input: action.input,
			cwd: action.cwd,
			tier: action.tier,
			parts: action.parts,
			actionHash: action.hash,
			preview: action.preview,
			origin: ask.origin,
			sessionId: deps.sessionId,
			why: ask.why,
			forwarded: ask.forwarded,
			policy: deps.policyQuery,
		},
		{ lookup: deps.lookupLink, ...(deps.linkTimeoutMs ? { timeoutMs: deps.linkTimeoutMs } : {}) },
	);
	if (!chain.decided) return { decided: null, steps: chain.steps };
	const { link, verdict, reason } = chain.decided;
	return {
		decided: { verdict, link, source: { kind: "authorizer", link, verdict, ...(reason ? { reason } : {}) } },
		steps: chain.steps,
	};
}
