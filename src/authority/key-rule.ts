/**
 * Which keys may answer a TUI dialog (adr/0030). pi lets the human type their next message while the agent
 * works, so a dialog can open mid-word: the letters that follow were meant for the editor, and many of them are
 * answer keys (`y`, `n`, `p`, `s`, `t`, `e`, `a`, `x`, …). A key answers only when it is not part of a typing
 * burst: nothing was pressed in the {@link QUIET_MS} before it, and the dialog had been on screen for
 * {@link SHOWN_MS}; and the answer is taken only if no key follows it within {@link ALONE_MS}. A paste never
 * answers.
 */

/**
 * The pause in typing before a key may answer. Typists' mean interval between keys is about 240 ms, the
 * slowest decile's about 480 ms (adr/0030): 1000 ms is more than twice a slow typist's mean interval.
 */
export const QUIET_MS = 1000;

/**
 * How long the dialog is on screen before a key may answer it: longer than a visual choice reaction takes
 * (adr/0030), so a key pressed before the human could have read the dialog's keys never answers.
 */
export const SHOWN_MS = 600;

/**
 * How long an accepted answer waits for the next key before it is taken: a key followed this soon by another was
 * the first letter of a word typed after a pause (an ordinary typist's next key comes ~240 ms later), not an
 * answer, and both go to the editor.
 */
export const ALONE_MS = 500;

/**
 * Why a key answered nothing, or that it may answer:
 * - `typing`: a key came less than {@link QUIET_MS} before it (a burst, maybe begun before the dialog opened);
 * - `too-soon`: the dialog was not yet on screen for {@link SHOWN_MS};
 * - `paste`: more than one character at once;
 * - `accepted`: it may answer.
 */
export type KeyVerdict = "accepted" | "typing" | "too-soon" | "paste";

export interface KeyTiming {
	/** When this key was pressed (ms, one clock for all three). */
	readonly at: number;
	/** When the key before it was pressed (wherever it went: the editor or the dialog); null: none yet. */
	readonly previousAt: number | null;
	/** When the dialog was first drawn; null: not yet. */
	readonly shownAt: number | null;
}

/** What the rule says of one key: a pure function of its data and times. */
export function keyVerdict(data: string, timing: KeyTiming): KeyVerdict {
	if (isPaste(data)) return "paste";
	if (timing.shownAt === null || timing.at - timing.shownAt < SHOWN_MS) return "too-soon";
	if (timing.previousAt !== null && timing.at - timing.previousAt < QUIET_MS) return "typing";
	return "accepted";
}

const BRACKETED_PASTE_START = "\u001b[200~";
const BRACKETED_PASTE_END = "\u001b[201~";

/**
 * More than one character at once: a bracketed paste, or characters a terminal without bracketed paste sent
 * together. pi's terminal splits a burst of input into single keys and escape sequences (`StdinBuffer`), so one
 * key is one code point or one escape sequence.
 */
export function isPaste(data: string): boolean {
	if (data.startsWith(BRACKETED_PASTE_START)) return true;
	if (data.startsWith("\u001b")) return false;
	return [...data].length > 1;
}

/**
 * The text a key the dialog ignored would have typed into the editor: a printable character, a paste's
 * content; nothing for a control key or an escape sequence.
 */
export function typedText(data: string): string {
	if (data.startsWith(BRACKETED_PASTE_START)) {
		const end = data.indexOf(BRACKETED_PASTE_END);
		return data.slice(BRACKETED_PASTE_START.length, end < 0 ? undefined : end);
	}
	if (data.startsWith("\u001b")) return "";
	// Control characters (Enter, Tab, Backspace, Ctrl+…) type nothing; a multi-character chunk is kept whole.
	return [...data].some((c) => c < " " || c === "\u007f") ? "" : data;
}

/** Backspace as terminals send it: it takes back the last ignored character instead of being lost. */
export function isBackspace(data: string): boolean {
	return data === "\u007f" || data === "\b";
}
