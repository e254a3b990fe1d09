import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { AskPrompt } from "./ask-prompt.ts";
import {
	type DialogOptions,
	type DialogPresenter,
	type DialogResult,
	dialogDeadline,
} from "./dialog-result.ts";

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
				const title = [prompt.title, ...prompt.lines].join("\n");
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
