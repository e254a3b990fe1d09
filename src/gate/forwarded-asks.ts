/**
 * The asks this session serves for others: those its children forward through the inbox, and those parked in
 * earlier runs of this project, offered to its human again at start. Each is decided by the pipeline (adr/0002)
 * and recorded once; the answer goes back to the child, or into the parked store.
 */

import { type AskPrompt, agoText } from "../authority/ask-prompt.ts";
import type { DialogPresenter, DialogResult } from "../authority/dialog-presenter.ts";
import type { DialogQueue } from "../authority/dialog-queue.ts";
import type { Reoffer } from "../authority/terminal-authorizer.ts";
import { visibleText } from "../authority/visible-text.ts";
import type { HubLog } from "../hub/hub-log.ts";
import type { AnswerResult, ParkedStore } from "../hub/parked-store.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import type { ServedAsk, ServerAnswer } from "../hub/transport.ts";
import { originDescription, originLabel } from "../origin/origin.ts";
import { safeShownLabel, UNNAMED } from "../origin/shown-name.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { processWide } from "../process-wide.ts";
import { type DecisionSource, innermostSource } from "../provenance/decision-source.ts";
import type { ParkedAnswerRefusal } from "../vocabulary/parked-answer-refusal.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { type DecisionSinks, recordDecision } from "./decision-events.ts";
import { originOfRequest } from "./forwarded-request.ts";
import type { GateOutcome } from "./gate-outcome.ts";
import { ParkedAnswerRecord } from "./parked-answer-record.ts";
import type { GatePipeline } from "./pipeline.ts";
import type { TreeGrants } from "./tree-grants.ts";

export interface ForwardedAsksOptions {
	readonly sessionId: string;
	readonly pipeline: GatePipeline;
	readonly parked: ParkedStore;
	readonly sinks: DecisionSinks;
	readonly dialogs: DialogQueue;
	/** The session's whole-tree grants: an answer that gives one lets the waiting asks check again. */
	readonly treeGrants: TreeGrants;
	readonly log: HubLog;
	/** Tells this session's human something went wrong (a parked answer that could not be recorded). */
	readonly warn: (message: string) => void;
	/**
	 * For the status line: the forwarded asks in flight, each by its asker's label, and the parked ones offered
	 * again, each by who parked them.
	 */
	readonly onPendingChange: (askers: readonly string[], parked: readonly string[]) => void;
	/** This session's permission mode under the policy the ask was decided by, recorded with it (adr/0023). */
	readonly permissionMode: (policy: EffectivePolicy | null) => PermissionMode;
	/** How this session shows a request's hops (adr/0025). */
	readonly shownFor: (request: ForwardRequest) => readonly string[] | null;
}

export class ForwardedAsks {
	private readonly options: ForwardedAsksOptions;
	/** The one count of asks in flight: each from the moment it is served until it is settled. */
	private readonly pending = new Map<symbol, { readonly label: string; readonly parked: boolean }>();

	constructor(options: ForwardedAsksOptions) {
		this.options = options;
	}

	/** A child's ask, decided here (its human, its links, or relayed further up) and recorded once. */
	async serve(ask: ServedAsk, reoffered?: Reoffer): Promise<ServerAnswer> {
		const shown = reoffered ? null : this.shownOf(ask.request);
		// The status line names who waits, by the same label as the dialog (the asker's own hop); a parked ask, who
		// parked it (its path names the root of the run that parked it, which is not who asked).
		const key = Symbol(ask.request.id);
		this.pending.set(
			key,
			reoffered
				? { label: parkedByLabel(ask.request), parked: true }
				: { label: safeShownLabel((shown ?? ask.request.path).at(-1) ?? UNNAMED), parked: false },
		);
		this.reportPending();
		try {
			return await this.decide(ask, shown, reoffered);
		} finally {
			this.pending.delete(key);
			this.reportPending();
		}
	}

	private async decide(
		ask: ServedAsk,
		shown: readonly string[] | null,
		reoffered: Reoffer | undefined,
	): Promise<ServerAnswer> {
		const { pipeline, parked, sessionId, sinks, treeGrants } = this.options;
		const started = performance.now();
		const { request } = ask;
		// Shared with the pipeline, which stores a human's answer before its grants or saved rules take effect.
		const record =
			request.unanswered === "defer" ? new ParkedAnswerRecord(parked, request.id, sessionId) : null;
		const { outcome, origin, policy } = await pipeline.run({
			kind: "forwarded",
			served: ask,
			...(reoffered ? { reoffered } : { shown }),
			...(record ? { record } : {}),
		});
		const answer = serverAnswerOf(outcome);
		let recorded: GateOutcome = { ...outcome, requestId: request.id };
		let answerRefused: ParkedAnswerRefusal | undefined;
		// A parked ask keeps waiting for a real answer: a dialog withdrawn (this root quitting) or a relay that
		// could not reach anyone decided nothing, and must not be stored as a denial the next root never offers.
		if (record && answer.decision !== "parked" && someoneDecided(answer.source)) {
			// What settled it, a human or not: its later use must not name a dialog nobody saw.
			const { decision, source, reason } = answer;
			const stored = record.store({ decision, source, ...(reason ? { reason } : {}) });
			if (!stored.ok) {
				this.options.log.write("server.parked_answer_refused", {
					requestId: request.id,
					reason: stored.reason,
				});
				// Whoever decided must hear that their answer did not count, and the audit must not say it did.
				this.options.warn(`pi-permission-hub: ${refusedText(stored)}`);
				recorded = refusedOutcome(recorded, stored);
				answerRefused = stored.reason;
			}
		}
		// Waiting asks a whole-tree grant now covers settle without a dialog: one the store refused was never made.
		if (answer.scope === "tree" && !answerRefused) treeGrants.recheckWaiting();
		// Queued: the child that runs the call writes the line it runs under, and blocks the call if it cannot.
		recordDecision(
			{
				outcome: recorded,
				event: "forwarded_ask",
				requesterSessionId: request.chain[0]?.sessionId,
				sessionId,
				origin,
				tool: request.tool,
				fallbackPreview: request.preview,
				latencyMs: performance.now() - started,
				policy,
				permissionMode: this.options.permissionMode(policy),
				...(answerRefused ? { answerRefused } : {}),
			},
			sinks,
			"queued",
		);
		return answer;
	}

	/**
	 * Offer the asks parked in earlier runs of this project to this session's human: one summary, then (if they
	 * choose to review) a dialog each. Detached: the session starts now, the summary waits its turn in the queue.
	 */
	offerParked(
		requests: readonly ForwardRequest[],
		presenter: DialogPresenter,
		timeoutMs: number,
		signal: AbortSignal,
	): void {
		const putOff = putOffThisProcess();
		offerParkedAsks({
			requests: requests.filter((request) => !putOff.has(request.id)),
			presenter,
			dialogs: this.options.dialogs,
			timeoutMs,
			signal,
			offer: (request, reoffered, reviewSignal) => void this.reoffer(request, reoffered, reviewSignal),
		}).catch((error: unknown) =>
			this.options.log.write("server.parked_summary_failed", { error: String(error) }),
		);
	}

	/** A parked ask offered to this session's human again: pending (in the status) until it is settled. */
	private async reoffer(request: ForwardRequest, reoffered: Reoffer, signal: AbortSignal): Promise<void> {
		try {
			const answer = await this.serve({ request: { ...request, unanswered: "defer" }, signal }, reoffered);
			// Left parked (later, Esc, no answer): not offered again in this process.
			if (answer.decision === "parked") putOffThisProcess().add(request.id);
		} catch (error) {
			// Detached from start(): a rejection here must not become an unhandled one in pi's process.
			this.options.log.write("server.reoffer_failed", { requestId: request.id, error: String(error) });
		}
	}

	private reportPending(): void {
		const pending = [...this.pending.values()];
		this.options.onPendingChange(
			pending.filter((p) => !p.parked).map((p) => p.label),
			pending.filter((p) => p.parked).map((p) => p.label),
		);
	}

	/** Naming is for display: a failure shows the names the request claims, it never fails the ask. */
	private shownOf(request: ForwardRequest): readonly string[] | null {
		try {
			return this.options.shownFor(request);
		} catch (error) {
			this.options.log.write("server.naming_failed", { requestId: request.id, error: String(error) });
			return null;
		}
	}
}

type RefusedAnswer = Extract<AnswerResult, { ok: false }>;

/** What the human and the audit line are told about an answer the parked store refused. */
function refusedText(refused: RefusedAnswer): string {
	switch (refused.reason) {
		case "too_large":
			return refused.message;
		case "answered":
			return `${refused.message}: the first answer stands, and this one was not recorded`;
		case "expired":
			return `${refused.message}, before this answer was recorded: it counts for nothing, and a new attempt asks again`;
		case "unknown":
			return `${refused.message} any more (used up or removed meanwhile): this answer was not recorded`;
	}
}

/**
 * The audit line of an answer the parked store refused: who decided stays the source, the reason says the answer
 * counted for nothing. Too large, the ask is still parked (`pending`); otherwise it was settled elsewhere or ran
 * out, and nothing this answer said is in force: never an `allow` (an auditor counting approvals must not count
 * it), so `deny`, with the refusal in `answerRefused`.
 */
function refusedOutcome(outcome: GateOutcome, refused: RefusedAnswer): GateOutcome {
	return {
		...outcome,
		outcome: refused.reason === "too_large" ? "pending" : "deny",
		reason: refusedText(refused),
	};
}

/** False when the decisive hop of a (possibly forwarded) source is "nobody could be asked" or a gate error. */
function someoneDecided(source: DecisionSource): boolean {
	const decisive = innermostSource(source).source;
	return decisive !== null && decisive.kind !== "unavailable" && decisive.kind !== "gate_error";
}

/**
 * The answer the child receives. Only an answer of the terminal step reaches further than this call: a whole-tree
 * grant stays with this session (children re-ask and are answered from it), grants for the asking subagent go
 * to it. A deny carries the human's typed reason, or the reason this session refused.
 */
export function serverAnswerOf(outcome: GateOutcome): ServerAnswer {
	const { source, terminal } = outcome;
	switch (outcome.outcome) {
		case "allow":
			if (terminal?.outcome === "allow" && terminal.scope === "tree") {
				return { decision: "allow", scope: "tree", grants: [], source };
			}
			if (terminal?.outcome === "allow" && terminal.scope === "subagent") {
				const grants = terminal.grants.map((g) => ({
					surface: g.surface,
					pattern: g.pattern,
					limit: g.limit,
				}));
				return { decision: "allow", scope: "subagent", grants, source };
			}
			return { decision: "allow", scope: "once", grants: [], source };
		case "deny": {
			const reason = terminal
				? terminal.outcome === "deny"
					? terminal.userReason
					: undefined
				: outcome.reason;
			return { decision: "deny", scope: "once", grants: [], source, ...(reason ? { reason } : {}) };
		}
		case "pending":
			return { decision: "parked", scope: "once", grants: [], source, reason: outcome.requestId ?? "" };
	}
}

/** How many parked asks the summary names one by one. */
const LISTED = 5;

interface ParkedReviewOptions {
	readonly requests: readonly ForwardRequest[];
	/** The session's dialog: in pi's terminal our component and its key rule (adr/0030), `select` in RPC. */
	readonly presenter: DialogPresenter;
	readonly dialogs: DialogQueue;
	readonly timeoutMs: number;
	/** Aborted when the session closes. */
	readonly signal: AbortSignal;
	/** Offers one parked request in its own dialog; resolves once it is settled or left parked. */
	readonly offer: (request: ForwardRequest, reoffered: Reoffer, signal: AbortSignal) => void;
}

/**
 * Asks parked in earlier runs of this project (print runs, children whose parent was gone) are offered once, at
 * start, as one summary: "review now" queues a dialog for each, "later" (also Esc, or no answer) leaves them all
 * parked and not offered again in this process. It is a dialog like any other: in pi's terminal it takes no key
 * typed before it showed, nor one of a typing burst (adr/0030), so a prompt typed at start-up never answers it.
 * In a review, Esc on one dialog leaves it and every one still waiting parked; only an explicit deny denies.
 * Returns what the human chose.
 */
async function offerParkedAsks(options: ParkedReviewOptions): Promise<"review" | "later"> {
	const { requests, presenter, dialogs, timeoutMs, signal } = options;
	if (requests.length === 0) return "later";
	const now = Date.now();
	const prompt = parkedSummaryPrompt(requests, now);
	const result = await dialogs.run(
		{ id: `parked-summary-${now}`, label: `${requests.length} parked asks from earlier runs` },
		async (): Promise<DialogResult | null> => {
			if (signal.aborted) return null;
			return presenter.present(prompt, { timeoutMs, signal });
		},
	);
	if (result?.kind !== "answer" || result.answer.kind !== "review") {
		const putOff = putOffThisProcess();
		for (const request of requests) putOff.add(request.id);
		return "later";
	}
	const review = new AbortController();
	const reviewSignal = AbortSignal.any([signal, review.signal]);
	for (const request of requests) options.offer(request, { stopReview: () => review.abort() }, reviewSignal);
	return "review";
}

/** The summary's two answers. */
export const REVIEW_NOW = "Review them now (one dialog each)";
export const REVIEW_LATER = "Later: not again while pi runs (they stay parked)";

/** The summary as a dialog: what is parked, by whom and when, and how to see them without it. */
export function parkedSummaryPrompt(requests: readonly ForwardRequest[], now: number): AskPrompt {
	const listed = requests.slice(0, LISTED).map((request) => {
		const who = originDescription(request.origin ?? originOfRequest(request));
		return `  ${request.tool}: ${request.preview.slice(0, 100)} — ${who}, ${agoText(now - Date.parse(request.createdAt))}`;
	});
	const more = requests.length > LISTED ? [`  …and ${requests.length - LISTED} more`] : [];
	const lines = [
		"Nobody could answer them then:",
		...listed,
		...more,
		"They stay parked until answered: pi-permission-hub pending lists them, approve/deny answer them.",
	];
	return {
		title: `${requests.length === 1 ? "1 ask was" : `${requests.length} asks were`} parked in earlier runs of this project`,
		lines: lines.map(visibleText),
		choices: [
			{ key: "v", label: REVIEW_NOW, answer: { kind: "review" } },
			{ key: "l", label: REVIEW_LATER, answer: { kind: "later" } },
		],
		dismiss: "later",
	};
}

/** Who parked a request, for the status line: the run that could not ask (a print run, a child), not its root. */
function parkedByLabel(request: ForwardRequest): string {
	const origin = request.origin ?? originOfRequest(request);
	switch (origin.kind) {
		case "headless":
			return "a pi -p run";
		case "human":
			return "an interactive session";
		default:
			// Each hop is already shown safely (adr/0025); the rest of the label comes from a file another run wrote.
			return visibleText(originLabel(origin));
	}
}

/**
 * The parked requests this pi process's human put off (later, Esc, no answer): not offered again until pi
 * starts anew, whichever session (`/new`, `/resume`, a reload) starts meanwhile.
 */
function putOffThisProcess(): Set<string> {
	return processWide("parked-put-off.v1", () => new Set<string>());
}
