/**
 * How every figure is printed: one labelled line per number, with its target and a verdict. A figure with a
 * target prints PASS or FAIL; a figure the project only reports prints INFO. The run fails if any FAIL was printed.
 */

export type Verdict = "PASS" | "FAIL" | "INFO";

export interface Measurement {
	readonly label: string;
	readonly value: number;
	readonly unit: string;
	/** Absent: reported only. */
	readonly target?: { readonly op: "<=" | ">=" | "=="; readonly value: number };
}

export interface FigureResult {
	readonly figure: string;
	readonly measurements: readonly Measurement[];
	/** Free text printed under the figure: the method, the raw medians, where the time goes. */
	readonly notes: readonly string[];
}

export function verdictOf(m: Measurement): Verdict {
	if (m.target === undefined) return "INFO";
	const { op, value } = m.target;
	if (Number.isNaN(m.value)) return "FAIL";
	const ok = op === "<=" ? m.value <= value : op === ">=" ? m.value >= value : m.value === value;
	return ok ? "PASS" : "FAIL";
}

export function formatNumber(value: number): string {
	if (!Number.isFinite(value)) return String(value);
	const abs = Math.abs(value);
	if (abs >= 100 || Number.isInteger(value)) return value.toFixed(0);
	if (abs >= 10) return value.toFixed(1);
	return value.toFixed(2);
}

export function formatMeasurement(m: Measurement): string {
	const value = `${formatNumber(m.value)} ${m.unit}`.trim();
	const target = m.target
		? `target ${m.target.op} ${formatNumber(m.target.value)} ${m.unit}`.trim()
		: "no target";
	return `  ${verdictOf(m).padEnd(4)}  ${m.label.padEnd(58)} ${value.padStart(14)}   (${target})`;
}

export function printFigure(result: FigureResult, write: (line: string) => void): void {
	write(`\n${result.figure}`);
	for (const m of result.measurements) write(formatMeasurement(m));
	for (const note of result.notes) write(`        ${note}`);
}

/** A figure that could not be measured at all is a failure, printed with its error. */
export function failedFigure(figure: string, error: unknown): FigureResult {
	const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
	return {
		figure,
		measurements: [
			{ label: "figure could not be measured", value: Number.NaN, unit: "", target: { op: "==", value: 0 } },
		],
		notes: message.split("\n").slice(0, 12),
	};
}
