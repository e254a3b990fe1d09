/** Real asks for the terminal-authorizer tests: the real classifier, the real policy step, real suggestions. */
import { suggestGrants } from "../../src/authority/suggest-grant.ts";
import type { Ask } from "../../src/authority/terminal-authorizer.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { describeAskWhy } from "../../src/gate/basis-source.ts";
import { decide } from "../../src/policy/decide.ts";
import { classifyBash } from "../classify/classify-fixture.ts";
import { policyFrom } from "../policy/fixtures.ts";

/** The ask a human would see for `command` under the built-in defaults (no config files). */
export function askFor(bash: BashParser, command: string, overrides: Partial<Ask> = {}): Ask {
	const action = classifyBash(bash, command);
	const decision = decide(action, policyFrom(null), {
		origin: { kind: "human" },
		grants: [],
		parkedApproval: null,
	});
	if (decision.mode !== "ask")
		throw new Error(`\`${command}\` does not ask under the defaults (${decision.mode})`);
	const askingParts = decision.askingParts.map((p) => ({ part: p.part, tier: p.tier }));
	return {
		action,
		origin: { kind: "human" },
		sessionId: "session-under-test",
		why: describeAskWhy(decision),
		askingParts,
		suggestions: decision.grantable ? suggestGrants(action.tool, askingParts) : [],
		unanswered: "wait",
		timeoutMs: 30_000,
		deferExpiryMs: 3_600_000,
		...overrides,
	};
}
