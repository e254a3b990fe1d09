/**
 * The whole-tree grants of one session (adr/0006): what a human gave with "allow for the whole tree" (or an
 * "Always allow" at a forwarded ask), which answer the asks its children forward. The one place that says which
 * of them covers an ask, keeps new ones, and lets the asks waiting for a dialog check again whether one now covers
 * them. Only forwarded asks read them; this session's own calls are decided by all of its grants (adr/0002).
 */
import type { DialogQueue } from "../authority/dialog-queue.ts";
import type { SessionGrants } from "../authority/session-grants.ts";
import type { TerminalDecision } from "../authority/terminal-authorizer.ts";
import type { ClassifiedAction } from "../classify/action.ts";
import type { Origin } from "../origin/origin.ts";
import { findCoveringGrant } from "../policy/decide.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { SessionGrant } from "../policy/grant-coverage.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";

export class TreeGrants {
	private readonly grants: SessionGrants;
	private readonly dialogs: DialogQueue;

	/** `grants`: the session's grants, of which these are the `tree` ones; `dialogs`: its one dialog queue. */
	constructor(grants: SessionGrants, dialogs: DialogQueue) {
		this.grants = grants;
		this.dialogs = dialogs;
	}

	/**
	 * The whole-tree grant that covers `action` for `origin` under `policy`, or null. Like any grant it answers
	 * after the deny rules only, and never what an ask rule, an agents section or a guarded path asks.
	 */
	covering(action: ClassifiedAction, policy: EffectivePolicy, origin: Origin): SessionGrant | null {
		const tree = this.grants.list().filter((grant) => grant.scope === "tree");
		return findCoveringGrant(action, tree, policy, origin);
	}

	/**
	 * The answer a covering grant gives an ask that waits for its dialog, or null: checked against the policy in
	 * force at that moment, since a grant given meanwhile may settle it.
	 */
	settle(action: ClassifiedAction, policy: EffectivePolicy, origin: Origin): TerminalDecision | null {
		const grant = this.covering(action, policy, origin);
		return grant ? { outcome: "allow", source: treeGrantSource(grant), scope: "once", grants: [] } : null;
	}

	/**
	 * Keep the whole-tree grants among `grants`, when there are any and `stands()` (a parked ask's answer counts
	 * only once the parked store took it; asked only then, since taking it is storing it). Called while the
	 * answer's dialog still holds its turn, so the next queued ask finds them in place.
	 */
	keep(grants: readonly SessionGrant[], stands: () => boolean): void {
		const tree = grants.filter((grant) => grant.scope === "tree");
		if (tree.length > 0 && stands()) this.grants.add(tree);
	}

	/** Let every ask waiting for a dialog check whether a whole-tree grant now covers it (after one was given). */
	recheckWaiting(): void {
		this.dialogs.recheckWaiting();
	}
}

/** What a whole-tree grant's decision records as its source. */
export function treeGrantSource(grant: SessionGrant): DecisionSource {
	return {
		kind: "session_grant",
		grantId: grant.id,
		surface: grant.surface,
		pattern: grant.pattern,
		scope: grant.scope,
	};
}
