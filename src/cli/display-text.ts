import { sanitizeLabel } from "../origin/sanitize-label.ts";

/**
 * Text from the audit log or a parked request, made safe for one terminal line: line breaks are shown as ⏎,
 * control, bidi and zero-width characters are removed (a hostile preview must not rewrite what a person
 * reads), and long texts are cut. JSON output carries the exact text instead.
 */
export function displayLine(text: string, maxChars = 500): string {
	const flat = text.replace(/\r\n|\r|\n/g, " ⏎ ").replace(/\s/g, " ");
	const clean = sanitizeLabel(flat, Number.POSITIVE_INFINITY);
	return clean.length > maxChars ? `${clean.slice(0, maxChars - 1)}…` : clean;
}

/**
 * A call's preview on one line, never cut: it is what runs (adr/0021), already capped and redacted by the gate
 * as the dialog showed it, so `pending`, `approve` and `explain` show the same text.
 */
export function displayPreview(preview: string): string {
	return displayLine(preview, Number.POSITIVE_INFINITY);
}

/** `3 lines`, `1 line`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
	return `${count} ${count === 1 ? singular : pluralForm}`;
}
