import type { ChildGateVerdict } from "../launchers/child-gate.ts";
import { capSourceText, type DecisionSource } from "../provenance/decision-source.ts";
import { askDenyReason } from "./block-reason.ts";

type Ungated = Extract<ChildGateVerdict, { gated: false }>;

/** The name under which the guard's step appears in the audit's chain. */
export const DELEGATION_GUARD_STEP = "pi-permission-hub:delegation-guard";

/** The dialog's "Why": what would happen, and the one change that prevents it. */
export function ungatedDelegationWhy(verdict: Ungated): string {
	return capSourceText(
		`the subagent would run without permission checks: ${verdict.why}. Allow only if you accept that. To gate subagents, ${verdict.fix.text}.`,
	);
}

/** What the model reads when the delegation was blocked. */
export function ungatedDelegationBlockReason(
	what: string,
	tier: string,
	verdict: Ungated,
	source: DecisionSource,
	userReason?: string,
): string {
	const fix = `To fix it, ${verdict.fix.text}.`;
	const decisive = innermost(source);
	if (decisive?.kind === "unavailable") {
		return `Blocked by pi-permission-hub: ${what} would start a subagent that runs without permission checks (${verdict.why}), and no one could be asked to accept that: ${decisive.reason}. This is a configuration problem, not a denial of the task. ${fix} Do not retry the delegation; tell the user about this settings change.`;
	}
	return `${askDenyReason(what, tier, source, userReason)} The subagent would have run without permission checks (${verdict.why}). ${fix}`;
}

function innermost(source: DecisionSource): DecisionSource | null {
	let current: DecisionSource | null = source;
	while (current?.kind === "forwarded") current = current.decision;
	return current;
}
