/** A Markdown table with padded columns, so a generated file reads as well raw as rendered. */
export function markdownTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
	const cells = [head, ...rows].map((row) => row.map((cell) => cell.replace(/\|/g, "\\|")));
	const widths = head.map((_, column) => Math.max(3, ...cells.map((row) => (row[column] ?? "").length)));
	const render = (row: readonly string[]) =>
		`| ${widths.map((width, column) => (row[column] ?? "").padEnd(width)).join(" | ")} |`;
	const [top, ...body] = cells;
	return [
		render(top ?? []),
		`| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`,
		...body.map(render),
	].join("\n");
}
