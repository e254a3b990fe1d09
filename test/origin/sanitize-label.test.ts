import { describe, expect, it } from "vitest";
import {
	MAX_LABEL_BYTES,
	MAX_SHORT_LABEL_BYTES,
	sanitizeLabel,
	sanitizeShortLabel,
	truncateUtf8,
} from "../../src/origin/sanitize-label.ts";

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/** True when the string has no unpaired surrogate (it survives a UTF-8 round trip unchanged). */
const wellFormed = (text: string): boolean => Buffer.from(text, "utf8").toString("utf8") === text;

describe("sanitizeLabel: characters that hide, reorder or disguise text are removed", () => {
	it.each([
		["C0 controls", "wor\u0000k\u0007e\u001br\nx", "workerx"],
		["DEL and C1 controls", "wor\u007fke\u0085r\u009b", "worker"],
		["bidi overrides (the Trojan Source trick)", "admin\u202e\u2066txt.exe\u2069\u202c", "admintxt.exe"],
		["bidi marks", "\u200eplan\u200fner\u061c", "planner"],
		["zero-width space, joiners and word joiner", "wo\u200brk\u200ce\u200dr\u2060", "worker"],
		["BOM", "\ufeffworker", "worker"],
		["tag characters (hidden ASCII)", "worker\u{e0041}\u{e0042}\u{e007f}", "worker"],
		["variation selectors", "wor\ufe0fker\u{e0100}", "worker"],
		["Hangul fillers", "\u3164wor\u115fker\uffa0", "worker"],
		["soft hyphen and combining grapheme joiner", "wor\u00adk\u034fer", "worker"],
		["line and paragraph separators", "wor\u2028ker\u2029", "worker"],
		["interlinear annotation controls", "wor\ufff9ke\ufffar\ufffb", "worker"],
		["lone surrogates", "wor\ud800ker\udfff", "worker"],
	])("removes %s", (_name, input, expected) => {
		expect(sanitizeLabel(input)).toBe(expected);
	});

	it("keeps ordinary text in any script, emoji included, and trims outer blanks", () => {
		expect(sanitizeLabel("  planner  ")).toBe("planner");
		expect(sanitizeLabel("исследователь-1")).toBe("исследователь-1");
		expect(sanitizeLabel("計画係 😀 agent")).toBe("計画係 😀 agent");
		expect(sanitizeLabel("👩‍💻")).toBe("👩💻");
	});

	it("returns an empty string for a label made only of invisible characters", () => {
		expect(sanitizeLabel("\u200b\u202e\u0000 \ufeff")).toBe("");
	});
});

describe("sanitizeLabel: byte caps on a character boundary", () => {
	it("caps at 256 bytes by default and 64 bytes for short labels", () => {
		expect(bytes(sanitizeLabel("a".repeat(1000)))).toBe(MAX_LABEL_BYTES);
		expect(bytes(sanitizeShortLabel("a".repeat(1000)))).toBe(MAX_SHORT_LABEL_BYTES);
		expect(sanitizeShortLabel("a".repeat(64))).toBe("a".repeat(64));
	});

	it("never splits a multi-byte character or a surrogate pair at any cap", () => {
		const samples = [
			"é".repeat(200),
			"計".repeat(200),
			"😀".repeat(200),
			"a😀é計".repeat(80),
			"a🧑🏽".repeat(60),
		];
		for (const sample of samples) {
			for (let cap = 0; cap <= 70; cap++) {
				const out = sanitizeLabel(sample, cap);
				expect(bytes(out)).toBeLessThanOrEqual(cap);
				expect(wellFormed(out)).toBe(true);
				expect(sample.startsWith(out)).toBe(true);
				// Nothing more would have fitted: the next character overflows the cap.
				const next = [...sample.slice(out.length)][0] ?? "";
				expect(bytes(out) + bytes(next)).toBeGreaterThan(cap);
			}
		}
	});

	it("cuts a 4-byte emoji whole: 63 ASCII bytes and an emoji fit 63 bytes, not 64", () => {
		expect(sanitizeShortLabel(`${"a".repeat(63)}😀`)).toBe("a".repeat(63));
		expect(sanitizeShortLabel(`${"a".repeat(60)}😀`)).toBe(`${"a".repeat(60)}😀`);
	});

	it("measures the cap after invisible characters are removed", () => {
		expect(sanitizeShortLabel(`${"\u200b".repeat(100)}${"a".repeat(64)}`)).toBe("a".repeat(64));
	});

	it("does not end in a blank when the cut falls just after a space", () => {
		const out = sanitizeShortLabel(`${"a".repeat(63)} bcd`);
		expect(out).toBe("a".repeat(63));
	});
});

describe("truncateUtf8", () => {
	it("keeps text within the cap and cuts on a character boundary", () => {
		expect(truncateUtf8("abc", 10)).toBe("abc");
		expect(truncateUtf8("aé", 2)).toBe("a");
		expect(truncateUtf8("aé", 3)).toBe("aé");
		expect(truncateUtf8("😀😀", 7)).toBe("😀");
		expect(truncateUtf8("😀", 0)).toBe("");
	});
});
