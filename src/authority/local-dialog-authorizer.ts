import { randomUUID } from "node:crypto";
import type { ClassifiedAction } from "../classify/action.ts";
import { originLabel } from "../origin/origin.ts";
import type { SessionGrant } from "../policy/grant-coverage.ts";
import { capSourceText, type DecisionSource } from "../provenance/decision-source.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { type AskEventSink, askOutcomeOf, DialogEvents } from "./ask-events.ts";
import { buildAskPrompt } from "./ask-prompt.ts";
import type { ChangePreview } from "./change-preview.ts";
import type { DialogPresenter, DialogResult } from "./dialog-presenter.ts";
import type { DialogQueue } from "./dialog-queue.ts";
import type { SuggestedGrant } from "./suggest-grant.ts";
import type { Ask, TerminalAuthorizer, TerminalDecision } from "./terminal-authorizer.ts";

/** What happens to an ask nobody answered before the deadline, when the policy is `defer`. */
export type Parker = (ask: Ask) => Promise<TerminalDecision>;

/** This session has a human at a UI: ask them, one dialog at a time. */
export class LocalDialogAuthorizer implements TerminalAuthorizer {
	readonly kind = "local-dialog";
	private readonly presenter: DialogPresenter;
	private readonly queue: DialogQueue;
	private readonly park: Parker | null;
	private readonly announce: AskEventSink;

	/** `announce` hears each dialog open and close; it must not throw (the sinks isolate their listeners). */
	constructor(presenter: DialogPresenter, queue: DialogQueue, park: Parker | null, announce: AskEventSink) {
		this.presenter = presenter;
		this.queue = queue;
		this.park = park;
		this.announce = announce;
	}

	async decide(ask: Ask): Promise<TerminalDecision> {
		if (ask.unanswered === "deny") {
			return unavailable("the unanswered policy is deny: asks are refused without a dialog");
		}
		const settledElsewhere = ask.kind === "forwarded" ? ask.settledElsewhere : () => null;
		const already = settledElsewhere();
		if (already) return already;
		let settle: ((decision: TerminalDecision) => void) | null = null;
		const settledWhileQueued = new Promise<TerminalDecision>((resolve) => {
			settle = resolve;
		});
		// Settled elsewhere while its dialog is already open: the question no longer stands, so the dialog goes.
		const withdraw = new AbortController();
		const signal = ask.signal ? AbortSignal.any([ask.signal, withdraw.signal]) : withdraw.signal;
		const item = {
			id: randomUUID(),
			label: `${ask.action.tool}: ${ask.action.preview.slice(0, 120)} — ${originLabel(ask.origin)} (${ask.action.tier})`,
			recheck: () => {
				const decision = settledElsewhere();
				if (decision && settle) {
					settle(decision);
					withdraw.abort();
				}
			},
		};
		let early = false;
		const shown = this.queue.run(item, async (position): Promise<TerminalDecision | null> => {
			// Settled or cancelled while it waited its turn: the question no longer stands, so it is never shown.
			if (early) return null;
			const settled = settledElsewhere();
			if (settled) return settled;
			if (ask.signal?.aborted) return this.toDecision(ask, { kind: "withdrawn" });
			const at = position();
			const change = await changeOf(ask.action);
			const prompt = buildAskPrompt(ask, {
				forwarded: ask.kind === "forwarded",
				position: at,
				...(change ? { change } : {}),
				...(ask.kind === "forwarded" && ask.reoffered
					? { parked: { createdAt: ask.request.createdAt, now: Date.now() } }
					: {}),
			});
			const events = new DialogEvents(ask, item.id);
			this.announce(events.opened(ask, at));
			let result: DialogResult;
			try {
				result = await this.presenter.present(prompt, {
					timeoutMs: ask.timeoutMs,
					signal,
					forwarded: ask.kind === "forwarded",
				});
			} catch (error) {
				// Closed all the same, or a status bar would show an ask that no longer waits.
				this.announce(events.closed("failed"));
				throw error;
			}
			this.announce(events.closed(askOutcomeOf(result)));
			const decision = await this.toDecision(ask, result);
			if (ask.kind === "forwarded" && decision.outcome === "allow" && decision.grants.length > 0) {
				ask.keepGrants(decision);
			}
			return decision;
		});
		const first = await Promise.race([shown, settledWhileQueued.then((d) => ({ early: d }))]);
		if (first !== null && "early" in first) {
			early = true;
			this.queue.remove(item);
			return first.early;
		}
		return first ?? unavailable("the ask was settled elsewhere");
	}

	private async toDecision(ask: Ask, result: DialogResult): Promise<TerminalDecision> {
		const userSource = humanAt(ask);
		if (ask.kind === "forwarded" && ask.reoffered && this.park) {
			// Parked earlier: only an explicit answer settles it; anything else leaves it parked as it was.
			if (result.kind === "dismissed") ask.reoffered.stopReview();
			if (result.kind !== "answer" || result.answer.kind === "later") return this.park(ask);
		}
		switch (result.kind) {
			case "answer": {
				const { answer } = result;
				if (answer.kind === "later") {
					return unavailable("left for later, but this ask cannot be parked");
				}
				if (answer.kind === "review") return unavailable("a review answers no ask");
				if (answer.kind === "fix") {
					return {
						outcome: "allow",
						source: userSource("allow", "once"),
						scope: "once",
						grants: [],
						fix: true,
					};
				}
				if (answer.kind === "always") {
					const save = { verdict: answer.verdict, where: answer.where, suggestions: ask.suggestions };
					if (answer.verdict === "deny")
						return { outcome: "deny", source: userSource("deny", "always"), save };
					// The rule is also a grant for now: it decides at once, whether or not the file can be written.
					const scope = ask.kind === "forwarded" ? "tree" : "session";
					const grants = toGrants(ask.suggestions, scope);
					return { outcome: "allow", source: userSource("allow", "always"), scope, grants, save };
				}
				if (answer.kind === "deny") {
					// A typed reason is recorded in the DecisionSource, which readers reject past its text cap.
					const reason = result.reason ? capSourceText(result.reason) : undefined;
					return {
						outcome: "deny",
						source: userSource("deny", "once", reason),
						...(reason ? { userReason: reason } : {}),
					};
				}
				const grants = answer.scope === "once" ? [] : toGrants(ask.suggestions, answer.scope);
				return { outcome: "allow", source: userSource("allow", answer.scope), scope: answer.scope, grants };
			}
			case "dismissed":
				return { outcome: "deny", source: userSource("deny", "once", "dismissed the dialog") };
			case "timeout": {
				if (ask.unanswered === "defer" && this.park) return this.park(ask);
				const seconds = Math.round(ask.timeoutMs / 1000);
				return unavailable(
					ask.parentUnreachable
						? capSourceText(
								`its parent could not be asked (${ask.parentUnreachable}), and nobody answered this subagent's own dialog within ${seconds} s`,
							)
						: `no answer within ${seconds} s`,
				);
			}
			case "withdrawn":
				return unavailable("the call was cancelled while the dialog was open");
		}
	}
}

/**
 * What an `edit` or `write` would change, read from disk as its dialog opens (not when it was queued: the file
 * may have changed meanwhile). The diff code loads only for such a dialog. A failure shows as a note: the dialog
 * still asks, with the one-line preview above it.
 */
async function changeOf(action: ClassifiedAction): Promise<ChangePreview | undefined> {
	if (action.tool !== "edit" && action.tool !== "write") return undefined;
	try {
		const { previewChange } = await import("./change-preview.ts");
		return await previewChange(action);
	} catch (error) {
		return {
			summary: "the change cannot be shown",
			lines: [{ kind: "note", text: `(${errorMessage(error)})` }],
		};
	}
}

/** The source of an answer given at this dialog; it says so when a subagent's own human answered for its parent. */
function humanAt(
	ask: Ask,
): (
	verdict: "allow" | "deny",
	scope: "once" | "session" | "subagent" | "tree" | "always",
	reason?: string,
) => DecisionSource {
	const instead = ask.parentUnreachable ? { parentUnreachable: capSourceText(ask.parentUnreachable) } : {};
	return (verdict, scope, reason) => ({
		kind: "user",
		via: "dialog",
		verdict,
		scope,
		...(reason ? { reason } : {}),
		...instead,
	});
}

function unavailable(reason: string): TerminalDecision {
	return { outcome: "deny", source: { kind: "unavailable", reason } };
}

export function toGrants(
	suggestions: readonly SuggestedGrant[],
	scope: "session" | "subagent" | "tree",
): SessionGrant[] {
	const grantedAt = new Date().toISOString();
	return suggestions.map((s) => ({
		id: randomUUID(),
		surface: s.surface,
		pattern: s.pattern,
		scope,
		limit: s.limit,
		grantedAt,
	}));
}
