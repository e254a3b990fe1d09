/**
 * Caller-claimed labels (agent names, CI providers, paths of agent names) reach dialogs, log lines and policy
 * matches. Characters that can hide or reorder text are removed so a label cannot spoof what a human reads.
 */

export const MAX_LABEL_BYTES = 256;
export const MAX_SHORT_LABEL_BYTES = 64;

/** Code point ranges removed from labels: they can hide, reorder or disguise text. */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
	[0x0000, 0x001f], // C0 controls
	[0x007f, 0x009f], // DEL and C1 controls
	[0x00ad, 0x00ad], // soft hyphen (invisible unless a line breaks there)
	[0x034f, 0x034f], // combining grapheme joiner
	[0x061c, 0x061c], // Arabic letter mark (bidi)
	[0x115f, 0x1160], // Hangul fillers
	[0x17b4, 0x17b5], // Khmer inherent vowels (invisible)
	[0x180e, 0x180e], // Mongolian vowel separator
	[0x200b, 0x200f], // zero-width space/joiners, LRM/RLM
	[0x2028, 0x2029], // line and paragraph separators: a line break inside a one-line label
	[0x202a, 0x202e], // bidi embeddings and overrides
	[0x2060, 0x206f], // word joiner, invisible operators, bidi isolates
	[0x3164, 0x3164], // Hangul filler
	[0xd800, 0xdfff], // lone surrogates
	[0xfe00, 0xfe0f], // variation selectors
	[0xfeff, 0xfeff], // zero-width no-break space (BOM)
	[0xffa0, 0xffa0], // halfwidth Hangul filler
	[0xfff0, 0xfffb], // specials, interlinear annotations
	[0x1d173, 0x1d17a], // musical formatting controls (invisible)
	[0xe0000, 0xe007f], // tag characters
	[0xe0100, 0xe01ef], // variation selectors supplement
];

function isInvisible(codePoint: number): boolean {
	return INVISIBLE_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to);
}

export function sanitizeLabel(value: string, maxBytes: number = MAX_LABEL_BYTES): string {
	let cleaned = "";
	for (const char of value) {
		if (!isInvisible(char.codePointAt(0) ?? 0)) cleaned += char;
	}
	// Trimmed again after the cut: a cut just after a space must not leave a label ending in blank space.
	return truncateUtf8(cleaned.trim(), maxBytes).trimEnd();
}

export function sanitizeShortLabel(value: string): string {
	return sanitizeLabel(value, MAX_SHORT_LABEL_BYTES);
}

/** Cut to at most `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(value: string, maxBytes: number): string {
	let bytes = 0;
	let end = 0;
	for (const char of value) {
		const size = Buffer.byteLength(char, "utf8");
		if (bytes + size > maxBytes) break;
		bytes += size;
		end += char.length;
	}
	return value.slice(0, end);
}
