/** Real asks for the terminal-authorizer tests: the real classifier, the real policy step, real suggestions. */

import { buildForwardRequest } from "../../src/authority/build-forward-request.ts";
import { suggestGrants } from "../../src/authority/suggest-grant.ts";
import type { ForwardedAsk, ForwardedOnly, OwnAsk } from "../../src/authority/terminal-authorizer.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { describeAskWhy } from "../../src/gate/basis-source.ts";
import { decide } from "../../src/policy/decide.ts";
import { classifyBash } from "../classify/classify-fixture.ts";
import { policyFrom } from "../policy/fixtures.ts";

/** The ask a human would see for `command` under the built-in defaults (no config files). */
export function askFor(bash: BashParser, command: string, overrides: Partial<OwnAsk> = {}): OwnAsk {
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
		kind: "own",
		action,
		origin: { kind: "human" },
		sessionId: "session-under-test",
		why: describeAskWhy(decision),
		humanOnly: decision.humanOnly,
		askingParts,
		suggestions: decision.grantable ? suggestGrants(action.tool, askingParts) : [],
		unanswered: "wait",
		timeoutMs: 30_000,
		deferExpiryMs: 3_600_000,
		savable: { allow: true, deny: true },
		...overrides,
	};
}

/** The same ask as a child forwarded it to this session, with the hooks only a forwarded ask has. */
export function forwardedAskFor(
	bash: BashParser,
	command: string,
	hooks: Partial<Omit<ForwardedOnly, "kind">> = {},
): ForwardedAsk {
	const own = askFor(bash, command);
	return {
		...own,
		kind: "forwarded",
		request: buildForwardRequest(own, { sessionId: "child-under-test", path: ["root", "child"] }),
		settledElsewhere: () => null,
		keepGrants: () => undefined,
		...hooks,
	};
}
