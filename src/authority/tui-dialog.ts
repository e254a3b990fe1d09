import type { ExtensionUIContext, Theme } from "@earendil-works/pi-coding-agent";
import type * as PiTui from "@earendil-works/pi-tui";
import { type AskPrompt, DISMISS_LABELS, type DialogChoice } from "./ask-prompt.ts";
import {
	type DialogOptions,
	type DialogPresenter,
	type DialogResult,
	dialogDeadline,
} from "./dialog-presenter.ts";

/**
 * The inline TUI dialog: single-key choices, a live countdown, and Esc to dismiss. A typed deny reason is
 * asked with pi's own input dialog right after `r`, so the component stays a plain key handler.
 */
/**
 * The pieces of pi-tui the dialog uses, handed in by the composition root: pi's own module instance, imported
 * through pi (the gate itself is imported natively, where pi's package aliases do not apply).
 */
export type TuiKit = Pick<typeof PiTui, "Key" | "matchesKey" | "truncateToWidth" | "wrapTextWithAnsi">;

export function tuiDialog(ui: ExtensionUIContext, kit: TuiKit): DialogPresenter {
	return {
		async present(prompt: AskPrompt, options: DialogOptions): Promise<DialogResult> {
			const deadline = dialogDeadline(options);
			const started = Date.now();
			try {
				const picked = await ui.custom<DialogChoice | "dismissed" | "ended">((tui, theme, _keys, done) => {
					const tick = setInterval(() => tui.requestRender(), 1000);
					const finish = (value: DialogChoice | "dismissed" | "ended"): void => {
						clearInterval(tick);
						deadline.signal.removeEventListener("abort", onEnd);
						done(value);
					};
					const onEnd = (): void => finish("ended");
					deadline.signal.addEventListener("abort", onEnd, { once: true });
					return {
						render: (width: number) =>
							renderDialog(kit, prompt, theme, width, remaining(started, options.timeoutMs)),
						handleInput: (data: string) => {
							if (kit.matchesKey(data, kit.Key.escape)) return finish("dismissed");
							const choice = prompt.choices.find((c) => data === c.key || data === c.key.toUpperCase());
							if (choice) finish(choice);
						},
						invalidate: () => undefined,
						dispose: () => clearInterval(tick),
					};
				});
				const ended = deadline.ended();
				if (picked === "ended" || ended) return { kind: ended ?? "withdrawn" };
				if (picked === "dismissed") return { kind: "dismissed" };
				if (picked.answer.kind !== "deny" || !picked.answer.withReason)
					return { kind: "answer", answer: picked.answer };
				const reason = await ui.input("Reason for denying (the agent will see it)", "", {
					signal: deadline.signal,
				});
				if (deadline.ended() === "withdrawn") return { kind: "withdrawn" };
				return {
					kind: "answer",
					answer: picked.answer,
					...(reason?.trim() ? { reason: reason.trim() } : {}),
				};
			} finally {
				deadline.dispose();
			}
		},
	};
}

function remaining(started: number, timeoutMs: number): number {
	return Math.max(0, Math.ceil((timeoutMs - (Date.now() - started)) / 1000));
}

function renderDialog(
	kit: TuiKit,
	prompt: AskPrompt,
	theme: Theme,
	width: number,
	secondsLeft: number,
): string[] {
	const inner = Math.max(20, width - 2);
	const bar = theme.fg("warning", "│ ");
	const minutes = Math.floor(secondsLeft / 60);
	const clock = `${minutes}:${String(secondsLeft % 60).padStart(2, "0")}`;
	const lines = [
		kit.truncateToWidth(
			theme.fg("warning", theme.bold(`⚠ ${prompt.title}`)) + theme.fg("dim", `  (answer within ${clock})`),
			width,
		),
	];
	for (const line of prompt.lines) {
		for (const wrapped of kit.wrapTextWithAnsi(line, inner)) lines.push(bar + wrapped);
	}
	lines.push(bar);
	const keys = prompt.choices.map((c) => `${theme.fg("accent", `[${c.key}]`)} ${c.label}`);
	for (const key of keys) lines.push(bar + kit.truncateToWidth(key, inner));
	lines.push(bar + theme.fg("dim", `[Esc] ${DISMISS_LABELS[prompt.dismiss]}`));
	return lines;
}
