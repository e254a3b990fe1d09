/**
 * The key rule (adr/0030) as a pure function of key times: a sentence typed at ordinary and slow paces across a
 * dialog's opening is ignored key by key; a key after a pause, on a dialog on screen long enough, is accepted; a
 * paste never is. And what an ignored key gives back to the editor.
 */
import { describe, expect, it } from "vitest";
import { isPaste, keyVerdict, QUIET_MS, SHOWN_MS, typedText } from "../../src/authority/key-rule.ts";

/** Each key's verdict for `text` typed one key every `interval` ms from t=0, the dialog drawn at `shownAt`. */
function typed(text: string, interval: number, shownAt: number): string[] {
	return [...text].map((key, i) =>
		keyVerdict(key, { at: i * interval, previousAt: i === 0 ? null : (i - 1) * interval, shownAt }),
	);
}

const SENTENCE = "yes please keep the happy path, then always allow";

describe("keyVerdict", () => {
	it.each([
		{ pace: "fast (120 ms)", interval: 120 },
		{ pace: "ordinary (240 ms, the mean of 136M keystrokes)", interval: 240 },
		{ pace: "slow (480 ms)", interval: 480 },
		{ pace: "very slow (900 ms)", interval: 900 },
	])("a sentence typed at a $pace pace across the dialog's opening: no key is accepted", ({ interval }) => {
		const verdicts = typed(SENTENCE, interval, 3 * interval + 1);
		expect(verdicts.filter((v) => v === "accepted")).toEqual([]);
		// Before the dialog was drawn, or in its first moments: too soon; after that: typing.
		expect(verdicts.at(-1)).toBe("typing");
	});

	it("the first key after a pause of QUIET_MS, on a dialog on screen for SHOWN_MS, is accepted", () => {
		expect(keyVerdict("y", { at: 5000, previousAt: 5000 - QUIET_MS, shownAt: 5000 - SHOWN_MS })).toBe(
			"accepted",
		);
		expect(keyVerdict("y", { at: 5000, previousAt: null, shownAt: 5000 - SHOWN_MS })).toBe("accepted");
	});

	it("a key a moment short of the pause is typing; one a moment short of the time on screen is too soon", () => {
		expect(keyVerdict("y", { at: 5000, previousAt: 5001 - QUIET_MS, shownAt: 0 })).toBe("typing");
		expect(keyVerdict("y", { at: 5000, previousAt: null, shownAt: 5001 - SHOWN_MS })).toBe("too-soon");
		// A dialog not drawn yet takes nothing.
		expect(keyVerdict("y", { at: 5000, previousAt: null, shownAt: null })).toBe("too-soon");
	});

	it("a paste is never an answer, however quiet it was before", () => {
		const quiet = { at: 60_000, previousAt: 0, shownAt: 0 };
		expect(keyVerdict("\u001b[200~y\u001b[201~", quiet)).toBe("paste");
		expect(keyVerdict("yy", quiet)).toBe("paste");
		// One key, even as an escape sequence or a character beyond the BMP, is one key.
		expect(keyVerdict("\u001b", quiet)).toBe("accepted");
		expect(keyVerdict("\u001b[A", quiet)).toBe("accepted");
		expect(isPaste("😀")).toBe(false);
	});
});

describe("typedText", () => {
	it("printable keys and a paste's content type; control keys and escape sequences type nothing", () => {
		expect(typedText("y")).toBe("y");
		expect(typedText(" ")).toBe(" ");
		expect(typedText("\u001b[200~two words\u001b[201~")).toBe("two words");
		expect(typedText("\r")).toBe("");
		expect(typedText("\u007f")).toBe("");
		expect(typedText("\u001b")).toBe("");
		expect(typedText("\u001b[A")).toBe("");
	});
});
