import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import { agoText } from "../authority/ask-prompt.ts";
import type { DialogQueue } from "../authority/dialog-queue.ts";
import type { Ask } from "../authority/terminal-authorizer.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import { originDescription } from "../origin/origin.ts";
import { originOfRequest } from "./decide-forwarded.ts";

/** The summary's two answers, as `select` shows them. */
export const REVIEW_NOW = "Review them now (one dialog each)";
export const REVIEW_LATER = "Later (leave them parked)";

/** How many parked asks the summary names one by one. */
const LISTED = 5;

export interface ParkedReviewOptions {
	readonly requests: readonly ForwardRequest[];
	readonly ui: ExtensionUIContext;
	readonly dialogs: DialogQueue;
	readonly timeoutMs: number;
	/** Aborted when the session closes. */
	readonly signal: AbortSignal;
	/** Offers one parked request in its own dialog; resolves once it is settled or left parked. */
	readonly offer: (
		request: ForwardRequest,
		reoffered: NonNullable<Ask["reoffered"]>,
		signal: AbortSignal,
	) => void;
}

/**
 * Asks parked in earlier runs of this project (print runs, children whose parent was gone) are offered once, at
 * start, as one summary: "review now" queues a dialog for each, "later" (also Esc, or no answer) leaves them all
 * parked. In a review, Esc on one dialog leaves it and every one still waiting parked; only an explicit deny
 * denies. Returns what the human chose.
 */
export async function offerParkedAsks(options: ParkedReviewOptions): Promise<"review" | "later"> {
	const { requests, ui, dialogs, timeoutMs, signal } = options;
	if (requests.length === 0) return "later";
	const now = Date.now();
	const listed = requests.slice(0, LISTED).map((request) => {
		const who = originDescription(request.origin ?? originOfRequest(request));
		return `  ${request.tool}: ${request.preview.slice(0, 100)} — ${who}, ${agoText(now - Date.parse(request.createdAt))}`;
	});
	const more = requests.length > LISTED ? [`  …and ${requests.length - LISTED} more`] : [];
	const title = [
		`${requests.length === 1 ? "1 ask was" : `${requests.length} asks were`} parked in earlier runs of this project (nobody could answer then):`,
		...listed,
		...more,
		"Later leaves them parked: pi-permission-hub pending lists them, approve/deny answer them.",
	].join("\n");
	const picked = await dialogs.run(
		{ id: `parked-summary-${now}`, label: `${requests.length} parked asks from earlier runs` },
		async (): Promise<string | undefined> => {
			if (signal.aborted) return undefined;
			return ui.select(title, [REVIEW_NOW, REVIEW_LATER], { signal, timeout: timeoutMs });
		},
	);
	if (picked !== REVIEW_NOW) return "later";
	const review = new AbortController();
	const reviewSignal = AbortSignal.any([signal, review.signal]);
	for (const request of requests) options.offer(request, { stopReview: () => review.abort() }, reviewSignal);
	return "review";
}
