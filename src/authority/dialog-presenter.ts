import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import { MAX_TIMER_MS } from "../vocabulary/timer-limit.ts";
import type { AskPrompt, DialogAnswer } from "./ask-prompt.ts";
import type { ChangeLine, ChangePreview } from "./change-preview.ts";

/**
 * How a dialog ended. Only `answer` and `dismissed` come from a human; the others mean nobody decided. What
 * `dismissed` means (a deny, or "later" for a parked ask) is the prompt's `dismiss`.
 */
export type DialogResult =
	| { readonly kind: "answer"; readonly answer: DialogAnswer; readonly reason?: string }
	/** The human closed the dialog without choosing (Esc). */
	| { readonly kind: "dismissed" }
	| { readonly kind: "timeout" }
	/** The call was cancelled while the dialog was open (Esc on the run, the child died). */
	| { readonly kind: "withdrawn" };

export interface DialogOptions {
	readonly timeoutMs: number;
	readonly signal?: AbortSignal;
	/**
	 * Set for an ask forwarded from a subagent. Every TUI dialog takes only keys meant for it (adr/0030); a
	 * forwarded one also wants each answer's key twice under `forwardedDialogKeys: "twice"`.
	 */
	readonly forwarded?: boolean;
}

/** A way to put an ask in front of a human: the TUI component, or select/input elsewhere (RPC, other UIs). */
export interface DialogPresenter {
	present(prompt: AskPrompt, options: DialogOptions): Promise<DialogResult>;
}

/**
 * Combine the dialog's own deadline with the caller's cancellation into one signal, and remember which one
 * fired: a timeout means nobody answered, a withdrawal means the question no longer stands.
 */
export function dialogDeadline(options: DialogOptions): {
	readonly signal: AbortSignal;
	readonly ended: () => "timeout" | "withdrawn" | null;
	readonly dispose: () => void;
} {
	const controller = new AbortController();
	let ended: "timeout" | "withdrawn" | null = null;
	const timer = setTimeout(
		() => {
			ended ??= "timeout";
			controller.abort();
		},
		Math.min(options.timeoutMs, MAX_TIMER_MS),
	);
	const onAbort = (): void => {
		ended ??= "withdrawn";
		controller.abort();
	};
	if (options.signal?.aborted) onAbort();
	else options.signal?.addEventListener("abort", onAbort, { once: true });
	return {
		signal: controller.signal,
		ended: () => ended,
		dispose: () => {
			clearTimeout(timer);
			options.signal?.removeEventListener("abort", onAbort);
		},
	};
}

/**
 * The dialog for UIs without our TUI component (RPC clients, other front ends): the same choices through
 * `select`, and `input` for a deny reason. The countdown is pi's; the deadline is ours, so a timeout can be
 * told apart from the human pressing Esc.
 */
export function selectDialog(ui: ExtensionUIContext): DialogPresenter {
	return {
		async present(prompt: AskPrompt, options: DialogOptions): Promise<DialogResult> {
			const deadline = dialogDeadline(options);
			try {
				const title = [prompt.title, ...prompt.lines, ...plainChange(prompt.change)].join("\n");
				const labels = prompt.choices.map((c) => c.label);
				const picked = await ui.select(title, labels, {
					signal: deadline.signal,
					timeout: options.timeoutMs,
				});
				const ended = deadline.ended();
				if (ended) return { kind: ended };
				const choice = prompt.choices.find((c) => c.label === picked);
				if (!choice) return { kind: "dismissed" };
				if (choice.answer.kind !== "deny" || !choice.answer.withReason)
					return { kind: "answer", answer: choice.answer };
				const reason = await ui.input("Reason for denying (the agent will see it)", "", {
					signal: deadline.signal,
				});
				const afterReason = deadline.ended();
				if (afterReason === "withdrawn") return { kind: "withdrawn" };
				// A deny chosen before the deadline stands even if the reason was never typed.
				return {
					kind: "answer",
					answer: choice.answer,
					...(reason?.trim() ? { reason: reason.trim() } : {}),
				};
			} finally {
				deadline.dispose();
			}
		},
	};
}

/** The diff lines a select title holds: enough to judge a small change, without flooding the client. */
export const SELECT_CHANGE_LINES = 60;

/** The change as plain unified-diff text (no colors: the client shows the title as it is), capped. */
function plainChange(change: ChangePreview | undefined): string[] {
	if (!change) return [];
	const shown = change.lines.slice(0, SELECT_CHANGE_LINES).map(plainLine);
	const left = change.lines.length - shown.length;
	return ["", `Change: ${change.summary}`, ...shown, ...(left > 0 ? [`… ${left} more lines`] : [])];
}

function plainLine(line: ChangeLine): string {
	switch (line.kind) {
		case "added":
			return `+${line.text}`;
		case "removed":
			return `-${line.text}`;
		case "context":
			return ` ${line.text}`;
		default:
			return line.text;
	}
}
