import type * as PiTui from "@earendil-works/pi-tui";

/**
 * How the TUI dialog fits the rows pi leaves it (adr/0021). pi's fullscreen layout cuts a dialog taller than
 * the screen at the bottom, where its keys are, and nothing scrolls it: so on a short terminal the dialog gives
 * up rows elsewhere, in the order of {@link FOLDS}, and its answer keys and Esc line are never the ones cut.
 */

/** Rows kept for the change when the terminal has them: a dialog that shows no change would hide it. */
const MIN_CHANGE_ROWS = 6;

/** The dialog's parts, styled; the layout decides which of their rows show. */
export interface DialogParts {
	/** The title row, already cut to the width. */
	readonly title: string;
	/** Body lines, whole: each is wrapped to the width, or cut to one row when rows are short. */
	readonly body: readonly string[];
	/** The first body lines (what runs) are always wrapped whole and never dropped. */
	readonly wholeLines?: number;
	readonly change?: ChangeRows;
	/** One cell per answer key, then Esc's. */
	readonly keys: readonly string[];
	/** A line about the last key pressed (waiting for its second press, or ignored in the pause). */
	readonly notice?: string;
}

export interface ChangeRows {
	/** The change's title line. */
	readonly title: string;
	/** The change, wrapped to the width: one string per row. */
	readonly rows: readonly string[];
	/** How often `d` turned the page (counted, not clamped: the page size follows the terminal's height). */
	readonly turns: number;
	/** The line under a page that is not the whole change: which rows show, and whether `d` goes back. */
	readonly pager: (first: number, last: number, total: number, backToFirst: boolean) => string;
}

export interface RowStyle {
	readonly kit: Pick<typeof PiTui, "truncateToWidth" | "visibleWidth" | "wrapTextWithAnsi">;
	/** Columns for a row's text, after the bar. */
	readonly inner: number;
	/** What every row but the title starts with. */
	readonly bar: string;
}

/** One way to lay the dialog out, each giving up more than the one before. */
interface Fold {
	/** Blank rows between the body, the change and the keys. */
	readonly gaps: boolean;
	/** The fewest rows of change a page shows (a longer change is paged with `d`). */
	readonly changeRows: number;
	/** Body lines wrapped whole, or each cut to one row. */
	readonly wrapBody: boolean;
	/** Keys two to a row, each cut to half the width, instead of a row each. */
	readonly keysInColumns: boolean;
	/** Body lines dropped, from the last: the first (what is asked) always stays. */
	readonly bodyDropped: number;
}

/** The last of {@link FOLDS}, from which body lines are then dropped one by one. */
const TIGHTEST: Fold = { gaps: false, changeRows: 1, wrapBody: false, keysInColumns: true, bodyDropped: 0 };

/**
 * What a short terminal takes first: rows of the change down to {@link MIN_CHANGE_ROWS}; the blank rows; the
 * change down to 2 rows; each wrapped body line cut to one row; the change down to 1 row; a row per key (keys
 * go two to a row, their labels cut); then the body lines from the last up. The lines saying what runs
 * (`wholeLines`, at least the first) are never cut nor dropped.
 */
const FOLDS: readonly Fold[] = [
	{ gaps: true, changeRows: MIN_CHANGE_ROWS, wrapBody: true, keysInColumns: false, bodyDropped: 0 },
	{ gaps: false, changeRows: MIN_CHANGE_ROWS, wrapBody: true, keysInColumns: false, bodyDropped: 0 },
	{ gaps: false, changeRows: 2, wrapBody: true, keysInColumns: false, bodyDropped: 0 },
	{ gaps: false, changeRows: 2, wrapBody: false, keysInColumns: false, bodyDropped: 0 },
	{ gaps: false, changeRows: 1, wrapBody: false, keysInColumns: false, bodyDropped: 0 },
	TIGHTEST,
];

/** The dialog's rows, and what of it a human can read on them. */
export interface DialogLayout {
	readonly rows: string[];
	/** The title and the lines saying what runs are all on screen, whole. */
	readonly whatRunsWhole: boolean;
	/** Indexes (in `keys`) of key cells cut to fit: their label, a grant's pattern say, is not all there. */
	readonly cutKeys: ReadonlySet<number>;
}

/**
 * The dialog's rows within `budget` rows. On a terminal too small even for the last fold (its title, the lines
 * saying what runs, one row of change and the keys), its top rows are cut rather than its keys.
 */
export function dialogLayout(parts: DialogParts, style: RowStyle, budget: number): DialogLayout {
	const kept = Math.max(1, parts.wholeLines ?? 0);
	const dropping = Array.from({ length: Math.max(0, parts.body.length - kept) }, (_, i) => ({
		...TIGHTEST,
		bodyDropped: i + 1,
	}));
	let laid: DialogLayout = { rows: [], whatRunsWhole: false, cutKeys: new Set() };
	for (const fold of [...FOLDS, ...dropping]) {
		laid = { ...rowsOf(parts, style, fold, budget), whatRunsWhole: true };
		if (laid.rows.length <= budget) return laid;
	}
	return { ...laid, rows: laid.rows.slice(-Math.max(1, budget)), whatRunsWhole: false };
}

function rowsOf(
	parts: DialogParts,
	style: RowStyle,
	fold: Fold,
	budget: number,
): Pick<DialogLayout, "rows" | "cutKeys"> {
	const { kit, inner, bar } = style;
	const head = [parts.title];
	const whole = parts.wholeLines ?? 0;
	for (const [index, line] of parts.body.slice(0, parts.body.length - fold.bodyDropped).entries()) {
		const rows =
			fold.wrapBody || index < whole ? kit.wrapTextWithAnsi(line, inner) : [kit.truncateToWidth(line, inner)];
		head.push(...rows.map((row) => bar + row));
	}
	const gap = fold.gaps ? [bar] : [];
	const keys = fold.keysInColumns
		? inColumns(parts.keys, style)
		: parts.keys.map((key) => kit.truncateToWidth(key, inner));
	// A cut label may hide part of a grant's pattern: the dialog refuses that answer (adr/0021).
	const cellWidth = fold.keysInColumns ? columnWidth(inner) : inner;
	const cutKeys = new Set(
		parts.keys.flatMap((key, index) => (kit.visibleWidth(key) > cellWidth ? [index] : [])),
	);
	const tail = [
		...gap,
		...keys.map((row) => bar + row),
		...(parts.notice ? [bar + kit.truncateToWidth(parts.notice, inner)] : []),
	];
	if (!parts.change) return { rows: [...head, ...tail], cutKeys };
	// The change's title takes a row of what is left.
	const left = budget - head.length - gap.length - 1 - tail.length;
	const change = page(parts.change, left, fold.changeRows).map(
		(row) => bar + kit.truncateToWidth(row, inner),
	);
	return {
		rows: [...head, ...gap, bar + kit.truncateToWidth(parts.change.title, inner), ...change, ...tail],
		cutKeys,
	};
}

/** The change's rows that show in `left` rows (at least `least` of them), with the page line if it is paged. */
function page(change: ChangeRows, left: number, least: number): string[] {
	const { rows } = change;
	if (rows.length <= Math.max(left, least)) return [...rows];
	// A page line takes a row too.
	const size = Math.max(least, left - 1);
	const pages = Math.ceil(rows.length / size);
	const first = (change.turns % pages) * size;
	const shown = rows.slice(first, first + size);
	return [...shown, change.pager(first + 1, first + shown.length, rows.length, first + size >= rows.length)];
}

/** The width of a key cell when keys go two to a row. */
function columnWidth(inner: number): number {
	return Math.floor((inner - 2) / 2);
}

/** Key cells two to a row, each cut to half the width, in their order. */
function inColumns(cells: readonly string[], { kit, inner }: RowStyle): string[] {
	const width = columnWidth(inner);
	const rows: string[] = [];
	for (let i = 0; i < cells.length; i += 2) {
		const left = kit.truncateToWidth(cells[i] ?? "", width);
		const right = cells[i + 1];
		rows.push(
			right === undefined
				? left
				: `${left}${" ".repeat(width - kit.visibleWidth(left) + 2)}${kit.truncateToWidth(right, width)}`,
		);
	}
	return rows;
}
