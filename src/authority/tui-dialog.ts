import type { ExtensionUIContext, Theme } from "@earendil-works/pi-coding-agent";
import type * as PiTui from "@earendil-works/pi-tui";
import type { ForwardedDialogKeys } from "../policy/config-schema.ts";
import { type AskPrompt, DISMISS_LABELS, type DialogChoice, lastsBeyondTheCall } from "./ask-prompt.ts";
import type { ChangeLine, ChangePreview } from "./change-preview.ts";
import {
	type DialogOptions,
	type DialogPresenter,
	type DialogResult,
	dialogDeadline,
} from "./dialog-presenter.ts";
import { ALONE_MS, isBackspace, type KeyVerdict, keyVerdict, typedText } from "./key-rule.ts";
import { type ChangeRows, type DialogParts, dialogLayout } from "./tui-dialog-layout.ts";
import type { TypingWatch } from "./typing-watch.ts";

/**
 * The inline TUI dialog: single-key choices, a live countdown, and Esc to dismiss. A typed deny reason is
 * asked with pi's own input dialog right after `r`, so the component stays a plain key handler. An edit or
 * write shows its change a screenful at a time, `d` turning to the next; a short terminal takes rows from
 * everything but the keys (`dialogLayout`). Only keys meant for the dialog answer it (adr/0030): a key of a
 * typing burst, one pressed as it opened, or a paste is ignored, said so under the keys, and its text given back
 * to the editor; an answer that outlives the call waits for Enter.
 */

/**
 * The pieces of pi-tui the dialog uses, handed in by the composition root: pi's own module instance, imported
 * through pi (the gate itself is imported natively, where pi's package aliases do not apply).
 */
export type TuiKit = Pick<
	typeof PiTui,
	"Key" | "matchesKey" | "truncateToWidth" | "visibleWidth" | "wrapTextWithAnsi"
>;

/** Said under the keys when the rule ignored keys (adr/0030): the human sees why nothing happened, and what to do. */
export const TYPING_NOTICE =
	"Keys ignored while you were typing — pause, then press a key (typed text goes back to the editor)";
export const TOO_SOON_NOTICE = "Key ignored: the dialog just opened — pause, then press a key";

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
 * taller than what is left is cut at the bottom, where its keys are; nothing scrolls it (`dialogLayout`).
 */
const PI_ROWS = 5;

export function tuiDialog(
	ui: ExtensionUIContext,
	kit: TuiKit,
	forwardedKeys: ForwardedDialogKeys,
	watch: TypingWatch,
): DialogPresenter {
	return {
		async present(prompt: AskPrompt, options: DialogOptions): Promise<DialogResult> {
			const deadline = dialogDeadline(options);
			const started = Date.now();
			const twice = options.forwarded === true && forwardedKeys === "twice";
			const view: DialogView = {
				page: 0,
				armed: null,
				ignored: null,
				shownAt: null,
				typed: "",
				unseen: false,
				whatRunsWhole: true,
				cutKeys: new Set(),
			};
			let redraw = (): void => undefined;
			try {
				const picked = await ui.custom<Picked | "ended">((tui, theme, _keys, done) => {
					redraw = () => tui.requestRender();
					const tick = setInterval(() => tui.requestRender(), 1000);
					/** An accepted answer, waiting {@link ALONE_MS} for a key that would make it a word's first letter. */
					let waiting: { readonly timer: ReturnType<typeof setTimeout>; readonly data: string } | null = null;
					const stopWaiting = (): void => {
						if (waiting) clearTimeout(waiting.timer);
						waiting = null;
					};
					const finish = (value: Picked | "ended"): void => {
						stopWaiting();
						clearInterval(tick);
						deadline.signal.removeEventListener("abort", onEnd);
						done(value);
					};
					const onEnd = (): void => finish("ended");
					deadline.signal.addEventListener("abort", onEnd, { once: true });
					return {
						render: (width: number) => {
							// Drawn now: the rule's on-screen time starts here, not when the ask was queued.
							view.shownAt ??= watch.now();
							return renderDialog(
								kit,
								prompt,
								theme,
								width,
								tui.terminal.rows,
								view,
								remaining(started, options.timeoutMs),
							);
						},
						handleInput: (data: string) => {
							if (waiting) {
								// Another key came before the answer was taken: it was typing after all.
								const first = waiting.data;
								stopWaiting();
								ignore(view, first, "typing");
							}
							const previousAt = watch.previousKeyAt(data);
							const verdict = keyVerdict(data, { at: watch.now(), previousAt, shownAt: view.shownAt });
							if (verdict !== "accepted") {
								ignore(view, data, verdict);
								tui.requestRender();
								return;
							}
							const answered = answerOf(kit, prompt, data, view, twice);
							tui.requestRender();
							if (!answered) return;
							const heard = watch.keysHeard();
							waiting = {
								data,
								timer: setTimeout(() => {
									waiting = null;
									// A key the dialog never got (another listener took it) still counts.
									if (watch.keysHeard() === heard) {
										finish(answered);
										return;
									}
									ignore(view, data, "typing");
									tui.requestRender();
								}, ALONE_MS),
							};
						},
						invalidate: () => undefined,
						dispose: () => {
							stopWaiting();
							clearInterval(tick);
						},
					};
				});
				// After pi put back the editor's text as it was when the dialog opened, and drawn without it.
				if (returnTyped(ui, view.typed)) redraw();
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
 * follows the terminal's height), an answer waiting for its confirmation, why the last key was ignored (said
 * until a key is taken), when the dialog was first drawn, and the text of the keys it ignored, for the editor.
 */
interface DialogView {
	page: number;
	armed: Armed | null;
	ignored: Exclude<KeyVerdict, "accepted"> | null;
	shownAt: number | null;
	typed: string;
	/** Whether the last render showed what runs whole, and which answers' labels it cut. */
	whatRunsWhole: boolean;
	cutKeys: ReadonlySet<number>;
	/** An allow was refused because what it allows was not on screen whole. */
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

/**
 * An answer waiting for its second key: Enter for one that outlives the call (`lastsBeyondTheCall`), the same key
 * again under `twice`.
 */
interface Armed {
	readonly picked: Picked;
	readonly by: "enter" | "again";
	/** The key that armed it: typing that follows makes it a word's first letter, for the editor. */
	readonly data: string;
}

/**
 * The answer a key the rule accepted gives, or null: it armed an answer, paged the change, went back from an
 * armed answer, or meant nothing here (a printable one then goes to the editor: a word begun after a pause).
 */
function answerOf(
	kit: TuiKit,
	prompt: AskPrompt,
	data: string,
	view: DialogView,
	twice: boolean,
): Picked | null {
	view.ignored = null;
	view.unseen = false;
	const armed = view.armed;
	view.armed = null;
	if (armed?.by === "enter") return kit.matchesKey(data, kit.Key.enter) ? armed.picked : null;
	const picked = pickedBy(kit, prompt, data);
	if (picked === undefined) {
		if (prompt.change && data.toLowerCase() === CHANGE_KEY) view.page += 1;
		else view.typed += typedText(data);
		return null;
	}
	const labelCut = picked !== "dismissed" && view.cutKeys.has(prompt.choices.indexOf(picked));
	if (allows(picked) && (!view.whatRunsWhole || labelCut)) {
		view.unseen = true;
		return null;
	}
	if (twice && !(armed?.by === "again" && armed.picked === picked)) {
		view.armed = { picked, by: "again", data };
		return null;
	}
	if (picked !== "dismissed" && lastsBeyondTheCall(picked)) {
		view.armed = { picked, by: "enter", data };
		return null;
	}
	return picked;
}

/**
 * A key the rule ignored: its text is kept for the editor, and an armed answer goes back, its key with it (typing
 * went on after it).
 */
function ignore(view: DialogView, data: string, verdict: Exclude<KeyVerdict, "accepted">): void {
	view.ignored = verdict;
	if (view.armed) view.typed += typedText(view.armed.data);
	view.armed = null;
	if (isBackspace(data)) view.typed = [...view.typed].slice(0, -1).join("");
	else view.typed += typedText(data);
}

/**
 * The text the dialog ignored goes back to the editor, after what is already there: the human typed it for
 * their next message. pi puts back the editor's text as it was when the dialog opened, so this runs after it.
 * Best effort: a UI that cannot take it back must not turn an answer into a failure. True: the editor changed.
 */
function returnTyped(ui: ExtensionUIContext, typed: string): boolean {
	if (typed === "") return false;
	try {
		ui.setEditorText(ui.getEditorText() + typed);
		return true;
	} catch {
		// The editor is gone (the session is closing): there is nothing to give the text back to.
		return false;
	}
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
		keys,
		...(prompt.change ? { change: changeRows(kit, prompt.change, theme, inner, view.page) } : {}),
		...(prompt.wholeLines === undefined ? {} : { wholeLines: prompt.wholeLines }),
		...noticeOf(prompt, theme, view),
	};
	const laid = dialogLayout(parts, { kit, inner, bar: theme.fg("warning", "│ ") }, rows - PI_ROWS);
	view.whatRunsWhole = laid.whatRunsWhole;
	view.cutKeys = laid.cutKeys;
	return laid.rows;
}

/** The line about the last key: an answer waiting for its confirmation, or why keys were ignored. */
function noticeOf(prompt: AskPrompt, theme: Theme, view: DialogView): { notice?: string } {
	if (view.ignored) {
		const text = view.ignored === "too-soon" ? TOO_SOON_NOTICE : TYPING_NOTICE;
		return { notice: theme.fg("warning", text) };
	}
	if (view.unseen) return { notice: theme.fg("warning", UNSEEN_COMMAND_NOTICE) };
	if (view.armed === null) return {};
	const { picked, by } = view.armed;
	const what = picked === "dismissed" ? DISMISS_LABELS[prompt.dismiss] : picked.label;
	if (by === "enter" && picked !== "dismissed") {
		const verb = picked.answer.kind === "always" ? "save" : "confirm";
		return { notice: theme.fg("warning", `Press Enter to ${verb}: ${what} — any other key goes back`) };
	}
	const key = picked === "dismissed" ? "Esc" : picked.key;
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
