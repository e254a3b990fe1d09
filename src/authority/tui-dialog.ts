import type { ExtensionUIContext, Theme } from "@earendil-works/pi-coding-agent";
import type * as PiTui from "@earendil-works/pi-tui";
import type { ForwardedDialogKeys } from "../policy/config-schema.ts";
import { type AskPrompt, DISMISS_LABELS, type DialogChoice } from "./ask-prompt.ts";
import type { ChangeLine, ChangePreview } from "./change-preview.ts";
import {
	type DialogOptions,
	type DialogPresenter,
	type DialogResult,
	dialogDeadline,
} from "./dialog-presenter.ts";

/**
 * The inline TUI dialog: single-key choices, a live countdown, and Esc to dismiss. A typed deny reason is
 * asked with pi's own input dialog right after `r`, so the component stays a plain key handler. An edit or
 * write shows its change a screenful at a time, `d` turning to the next; an ask forwarded from a subagent guards
 * its keys (`forwardedDialogKeys`).
 */

/**
 * The pieces of pi-tui the dialog uses, handed in by the composition root: pi's own module instance, imported
 * through pi (the gate itself is imported natively, where pi's package aliases do not apply).
 */
export type TuiKit = Pick<typeof PiTui, "Key" | "matchesKey" | "truncateToWidth" | "wrapTextWithAnsi">;

/** Keys pressed this soon after a forwarded dialog opens were meant for something else (`pause`). */
export const FORWARDED_KEY_PAUSE_MS = 400;

/** What a key picks: a choice, or Esc. */
type Picked = DialogChoice | "dismissed";

/** The key that shows the change's next screenful, or its first after the last (no answer uses it). */
const CHANGE_KEY = "d";

/** Rows kept for the change however small the terminal: a dialog that shows no change would hide it. */
const MIN_CHANGE_ROWS = 6;

/**
 * Rows pi keeps for itself on the dialog's screen: in its fullscreen layout at least one transcript row above
 * the dialog, and below it the footer (directory, usage, extension statuses) and maybe a widget. A dialog
 * taller than what is left is cut at the bottom, where its keys are; nothing scrolls it.
 */
const PI_ROWS = 5;

export function tuiDialog(
	ui: ExtensionUIContext,
	kit: TuiKit,
	forwardedKeys: ForwardedDialogKeys,
): DialogPresenter {
	return {
		async present(prompt: AskPrompt, options: DialogOptions): Promise<DialogResult> {
			const deadline = dialogDeadline(options);
			const started = Date.now();
			const guard = options.forwarded ? forwardedKeys : null;
			try {
				const picked = await ui.custom<Picked | "ended">((tui, theme, _keys, done) => {
					const tick = setInterval(() => tui.requestRender(), 1000);
					const view: DialogView = { page: 0, armed: null };
					const finish = (value: Picked | "ended"): void => {
						clearInterval(tick);
						deadline.signal.removeEventListener("abort", onEnd);
						done(value);
					};
					const onEnd = (): void => finish("ended");
					deadline.signal.addEventListener("abort", onEnd, { once: true });
					return {
						render: (width: number) =>
							renderDialog(
								kit,
								prompt,
								theme,
								width,
								tui.terminal.rows,
								view,
								remaining(started, options.timeoutMs),
							),
						handleInput: (data: string) => {
							if (guard === "pause" && Date.now() - started < FORWARDED_KEY_PAUSE_MS) return;
							const picked = pickedBy(kit, prompt, data);
							const armed = view.armed;
							view.armed = null;
							if (picked === undefined) {
								if (prompt.change && data.toLowerCase() === CHANGE_KEY) view.page += 1;
								tui.requestRender();
								return;
							}
							if (guard === "twice" && armed !== picked) {
								view.armed = picked;
								tui.requestRender();
								return;
							}
							finish(picked);
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

/**
 * What the human changed on screen: how often `d` turned the change's page (counted, not clamped: the page size
 * follows the terminal's height), and an answer waiting for its second key (`twice`).
 */
interface DialogView {
	page: number;
	armed: Picked | null;
}

function pickedBy(kit: TuiKit, prompt: AskPrompt, data: string): Picked | undefined {
	if (kit.matchesKey(data, kit.Key.escape)) return "dismissed";
	return prompt.choices.find((c) => data === c.key || data === c.key.toUpperCase());
}

function remaining(started: number, timeoutMs: number): number {
	return Math.max(0, Math.ceil((timeoutMs - (Date.now() - started)) / 1000));
}

function renderDialog(
	kit: TuiKit,
	prompt: AskPrompt,
	theme: Theme,
	width: number,
	rows: number,
	view: DialogView,
	secondsLeft: number,
): string[] {
	const inner = Math.max(20, width - 2);
	const bar = theme.fg("warning", "│ ");
	const minutes = Math.floor(secondsLeft / 60);
	const clock = `${minutes}:${String(secondsLeft % 60).padStart(2, "0")}`;
	const head = [
		kit.truncateToWidth(
			theme.fg("warning", theme.bold(`⚠ ${prompt.title}`)) + theme.fg("dim", `  (answer within ${clock})`),
			width,
		),
	];
	for (const line of prompt.lines) {
		for (const wrapped of kit.wrapTextWithAnsi(line, inner)) head.push(bar + wrapped);
	}
	const tail = [bar];
	const keys = prompt.choices.map((c) => `${theme.fg("accent", `[${c.key}]`)} ${c.label}`);
	for (const key of keys) tail.push(bar + kit.truncateToWidth(key, inner));
	tail.push(bar + theme.fg("dim", `[Esc] ${DISMISS_LABELS[prompt.dismiss]}`));
	if (view.armed !== null) {
		const what = view.armed === "dismissed" ? DISMISS_LABELS[prompt.dismiss] : view.armed.label;
		const key = view.armed === "dismissed" ? "Esc" : view.armed.key;
		tail.push(bar + kit.truncateToWidth(theme.fg("warning", `Press ${key} again to answer: ${what}`), inner));
	}
	if (!prompt.change) return [...head, ...tail];
	// A screenful: whatever pi and the rest of the dialog leave, less the blank row, the change's title and its
	// page line.
	const room = Math.max(MIN_CHANGE_ROWS, rows - PI_ROWS - head.length - tail.length - 3);
	const change = changeRows(kit, prompt.change, theme, inner).map((row) => bar + row);
	const pages = Math.max(1, Math.ceil(change.length / room));
	const first = (view.page % pages) * room;
	const shown = change.slice(first, first + room);
	const title = bar + theme.bold(`Change: ${prompt.change.summary}`);
	const next = first + room < change.length ? "next rows" : "back to the first rows";
	const pager =
		pages > 1
			? [
					bar +
						theme.fg(
							"dim",
							`rows ${first + 1}–${first + shown.length} of ${change.length} · ${theme.fg("accent", `[${CHANGE_KEY}]`)} ${next}`,
						),
				]
			: [];
	return [...head, bar, title, ...shown, ...pager, ...tail];
}

/** The change as rows of the terminal: diff lines colored as pi colors its own edit diffs, wrapped to the width. */
function changeRows(kit: TuiKit, change: ChangePreview, theme: Theme, inner: number): string[] {
	return change.lines.flatMap((line) => kit.wrapTextWithAnsi(coloredLine(line, theme), inner));
}

function coloredLine(line: ChangeLine, theme: Theme): string {
	switch (line.kind) {
		case "added":
			return theme.fg("toolDiffAdded", `+${line.text}`);
		case "removed":
			return theme.fg("toolDiffRemoved", `-${line.text}`);
		case "context":
			return theme.fg("toolDiffContext", ` ${line.text}`);
		case "hunk":
			return theme.fg("accent", line.text);
		case "note":
			return theme.fg("dim", line.text);
	}
}
