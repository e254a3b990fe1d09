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
import { type ChangeRows, type DialogParts, dialogLayout } from "./tui-dialog-layout.ts";

/**
 * The inline TUI dialog: single-key choices, a live countdown, and Esc to dismiss. A typed deny reason is
 * asked with pi's own input dialog right after `r`, so the component stays a plain key handler. An edit or
 * write shows its change a screenful at a time, `d` turning to the next; a short terminal takes rows from
 * everything but the keys (`layOutDialog`); an ask forwarded from a subagent guards its keys
 * (`forwardedDialogKeys`) and says when it ignored one.
 */

/**
 * The pieces of pi-tui the dialog uses, handed in by the composition root: pi's own module instance, imported
 * through pi (the gate itself is imported natively, where pi's package aliases do not apply).
 */
export type TuiKit = Pick<
	typeof PiTui,
	"Key" | "matchesKey" | "truncateToWidth" | "visibleWidth" | "wrapTextWithAnsi"
>;

/** Keys pressed this soon after a forwarded dialog opens were meant for something else (`pause`). */
export const FORWARDED_KEY_PAUSE_MS = 400;

/** Said under the keys when the pause dropped a key: the human sees why nothing happened, and what to do. */
export const IGNORED_KEY_NOTICE = "Key ignored: the dialog just opened. Press again.";

/**
 * Said when an allow was refused because what it allows was not on screen whole (adr/0021): the command and
 * the paths outside the project, or the answer's own label (a grant's pattern) cut to fit.
 */
export const UNSEEN_COMMAND_NOTICE =
	"Not all this answer allows is on screen: enlarge the terminal to choose it.";

/** What a key picks: a choice, or Esc. */
type Picked = DialogChoice | "dismissed";

/** The key that shows the change's next screenful, or its first after the last (no answer uses it). */
const CHANGE_KEY = "d";

/**
 * Rows pi keeps for itself on the dialog's screen: in its fullscreen layout at least one transcript row above
 * the dialog, and below it the footer (directory, usage, extension statuses) and maybe a widget. A dialog
 * taller than what is left is cut at the bottom, where its keys are; nothing scrolls it (`layOutDialog`).
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
					const view: DialogView = {
						page: 0,
						armed: null,
						ignored: false,
						unseen: false,
						whatRunsWhole: true,
						cutKeys: new Set(),
					};
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
							if (guard === "pause" && Date.now() - started < FORWARDED_KEY_PAUSE_MS) {
								if (!view.ignored) tui.requestRender();
								view.ignored = true;
								return;
							}
							view.ignored = false;
							view.unseen = false;
							const picked = pickedBy(kit, prompt, data);
							const armed = view.armed;
							view.armed = null;
							if (picked === undefined) {
								if (prompt.change && data.toLowerCase() === CHANGE_KEY) view.page += 1;
								tui.requestRender();
								return;
							}
							const labelCut = picked !== "dismissed" && view.cutKeys.has(prompt.choices.indexOf(picked));
							if (allows(picked) && (!view.whatRunsWhole || labelCut)) {
								view.unseen = true;
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
 * follows the terminal's height), an answer waiting for its second key (`twice`), and whether the pause
 * ignored a key (said until the next key is taken); whether the last render showed what runs whole and which
 * answers' labels it cut, and whether an allow was refused for either.
 */
interface DialogView {
	page: number;
	armed: Picked | null;
	ignored: boolean;
	whatRunsWhole: boolean;
	cutKeys: ReadonlySet<number>;
	unseen: boolean;
}

/** An answer that lets the call run: refused while what runs is not on screen whole. */
function allows(picked: Picked): boolean {
	if (picked === "dismissed") return false;
	const { answer } = picked;
	return (
		answer.kind === "allow" ||
		answer.kind === "fix" ||
		(answer.kind === "always" && answer.verdict === "allow")
	);
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
	const minutes = Math.floor(secondsLeft / 60);
	const clock = `${minutes}:${String(secondsLeft % 60).padStart(2, "0")}`;
	const keys = [
		...prompt.choices.map((c) => `${theme.fg("accent", `[${c.key}]`)} ${c.label}`),
		theme.fg("dim", `[Esc] ${DISMISS_LABELS[prompt.dismiss]}`),
	];
	const parts: DialogParts = {
		title: kit.truncateToWidth(
			theme.fg("warning", theme.bold(`⚠ ${prompt.title}`)) + theme.fg("dim", `  (answer within ${clock})`),
			width,
		),
		body: prompt.lines,
		...(prompt.wholeLines === undefined ? {} : { wholeLines: prompt.wholeLines }),
		keys,
		...(prompt.change ? { change: changeRows(kit, prompt.change, theme, inner, view.page) } : {}),
		...noticeOf(prompt, theme, view),
	};
	const laid = dialogLayout(parts, { kit, inner, bar: theme.fg("warning", "│ ") }, rows - PI_ROWS);
	view.whatRunsWhole = laid.whatRunsWhole;
	view.cutKeys = laid.cutKeys;
	return laid.rows;
}

/** The line about the last key: an answer waiting for its second press (`twice`), or a key the pause ignored. */
function noticeOf(prompt: AskPrompt, theme: Theme, view: DialogView): { notice?: string } {
	if (view.ignored) return { notice: theme.fg("warning", IGNORED_KEY_NOTICE) };
	if (view.unseen) return { notice: theme.fg("warning", UNSEEN_COMMAND_NOTICE) };
	if (view.armed === null) return {};
	const what = view.armed === "dismissed" ? DISMISS_LABELS[prompt.dismiss] : view.armed.label;
	const key = view.armed === "dismissed" ? "Esc" : view.armed.key;
	return { notice: theme.fg("warning", `Press ${key} again to answer: ${what}`) };
}

/** The change as the dialog pages it: diff lines colored as pi colors its own edit diffs, wrapped to the width. */
function changeRows(
	kit: TuiKit,
	change: ChangePreview,
	theme: Theme,
	inner: number,
	turns: number,
): ChangeRows {
	return {
		title: theme.bold(`Change: ${change.summary}`),
		rows: change.lines.flatMap((line) => kit.wrapTextWithAnsi(coloredLine(line, theme), inner)),
		turns,
		pager: (first, last, total, backToFirst) =>
			theme.fg(
				"dim",
				`rows ${first}–${last} of ${total} · ${theme.fg("accent", `[${CHANGE_KEY}]`)} ${backToFirst ? "back to the first rows" : "next rows"}`,
			),
	};
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
