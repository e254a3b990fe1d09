/**
 * The indentation unit of a text a writer edits in place (a config or settings file), so what it adds is indented
 * like the rest: a tab, or the spaces of the text's first indent (two in a text with none).
 */
export function indentUnitOf(text: string): string {
	const indent = /^([ \t]+)\S/m.exec(text)?.[1];
	if (indent?.startsWith("\t")) return "\t";
	return " ".repeat(indent?.length ?? 2);
}
