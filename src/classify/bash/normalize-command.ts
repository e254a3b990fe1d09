/**
 * The form of a bash command that the action hash covers: trimmed, with runs of unquoted blanks between words
 * collapsed to one space. Quoted text, escapes, comments and heredoc bodies are kept byte for byte, so
 * `rm  -rf   x` and ` rm -rf x ` hash alike while `echo "a  b"` and `echo "a b"` do not.
 */
import type { BashParseResult, SyntaxNode } from "./bash-parser.ts";

/** Nodes whose whole text is significant even where the grammar gives it no token of its own. */
const VERBATIM_TYPES = new Set([
	"string",
	"raw_string",
	"ansi_c_string",
	"translated_string",
	"heredoc_body",
	"comment",
]);

export function normalizeBashCommand(parsed: BashParseResult): string {
	// Without a tree the tokens are unknown; trimming is the only change that is certainly harmless.
	if (!parsed.ok) return parsed.source.trim();
	const { source } = parsed;
	const verbatim: Array<readonly [number, number]> = [];
	const stack: SyntaxNode[] = [parsed.root];
	while (stack.length > 0) {
		const node = stack.pop();
		if (node === undefined) break;
		if (node.children.length === 0 || VERBATIM_TYPES.has(node.type)) {
			if (node.end > node.start) verbatim.push([node.start, node.end]);
			continue;
		}
		for (let i = node.children.length - 1; i >= 0; i--) {
			const child = node.children[i];
			if (child !== undefined) stack.push(child);
		}
	}
	// A heredoc body comes after the rest of its line in the source but before it in the tree.
	verbatim.sort((a, b) => a[0] - b[0]);
	let out = "";
	let position = 0;
	for (const [start, end] of verbatim) {
		if (start < position) continue;
		out += source.slice(position, start).replace(/[ \t]+/g, " ");
		out += source.slice(start, end);
		position = end;
	}
	out += source.slice(position).replace(/[ \t]+/g, " ");
	return out.trim();
}
