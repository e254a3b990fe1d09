/**
 * Which characters of a bash command a secret redaction may replace (adr/0005): only the text of a single word,
 * quoted string, heredoc body or comment — never an operator, a separator, the blank between words, a command
 * name, a substitution's or expansion's own syntax, or a heredoc's delimiters. So a redaction can hide a value,
 * never what runs: `echo -----BEGIN PRIVATE KEY-----; rm -rf ../x; echo -----END PRIVATE KEY-----` keeps its
 * `rm`, and a `$(…)` inside a URL's password stays on screen (the words inside a substitution are text again:
 * a secret there is still hidden).
 */
import type { BashParser, SyntaxNode } from "./bash-parser.ts";

/** True when every character in [start, end) may be replaced by a redaction. */
export type Redactable = (start: number, end: number) => boolean;

/** Nodes whose whole range is a value's text (their inner substitutions excepted). */
const TEXT_NODES: ReadonlySet<string> = new Set([
	"word",
	"string",
	"string_content",
	"raw_string",
	"ansi_c_string",
	"translated_string",
	"heredoc_body",
	"heredoc_content",
	"number",
	"comment",
]);

/** Nodes that run or expand something: their syntax is never text, the words inside them are. */
const CODE_NODES: ReadonlySet<string> = new Set([
	"command_substitution",
	"process_substitution",
	"expansion",
	"simple_expansion",
	"arithmetic_expansion",
]);

/** Blanks and the characters bash gives a meaning of their own: never text when the command does not parse. */
const SHELL_SYNTAX = /[\s;&|<>()`$]/;

/**
 * The redactable spans of `command`, from its parse tree; when it does not parse (or no parser is at hand),
 * every character but blanks and shell syntax (so a redaction stays within what would be one word).
 */
export function redactableSpans(command: string, parser: BashParser | undefined): Redactable {
	const parsed = parser?.parse(command);
	const text = new Uint8Array(command.length);
	if (parsed?.ok && parsed.source === command) {
		paint(parsed.root, text, false);
	} else {
		for (let i = 0; i < command.length; i++) text[i] = SHELL_SYNTAX.test(command.charAt(i)) ? 0 : 1;
	}
	// Prefix sums: a span is redactable when it holds as many text characters as it is long.
	const sums = new Uint32Array(command.length + 1);
	for (let i = 0; i < command.length; i++) sums[i + 1] = (sums[i] ?? 0) + (text[i] ?? 0);
	return (start, end) =>
		start >= 0 &&
		end <= command.length &&
		start < end &&
		(sums[end] ?? 0) - (sums[start] ?? 0) === end - start;
}

/** Marks text nodes' ranges, then unmarks code nodes' inside them; a command name is never text. */
function paint(node: SyntaxNode, text: Uint8Array, inCommandName: boolean): void {
	const commandName = inCommandName || node.type === "command_name";
	if (CODE_NODES.has(node.type)) text.fill(0, node.start, node.end);
	else if (TEXT_NODES.has(node.type) && !commandName) text.fill(1, node.start, node.end);
	for (const child of node.children) paint(child, text, commandName && !CODE_NODES.has(child.type));
}
