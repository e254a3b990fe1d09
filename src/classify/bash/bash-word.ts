/**
 * Static evaluation of one bash word (an argument, a command name, a redirect target): what it is when bash has
 * removed quotes and escapes, and whether anything in it is only known at run time.
 */
import type { SyntaxNode } from "./bash-parser.ts";

export interface BashWord {
	/** Quote-removed value; run-time parts (`$X`, `$(…)`) keep their source text in place. */
	readonly text: string;
	/** No expansion, substitution, glob or brace expansion: `text` is exactly what the command receives. */
	readonly literal: boolean;
	/**
	 * The word as a path: like `text`, but a leading `~` means the home directory (from an unquoted `~`, `$HOME`
	 * or `${HOME}`) and a quoted leading `~` is written `./~`. Undefined when the path depends on run-time values.
	 * Globs are kept: the path of their literal prefix is what they can touch.
	 */
	readonly pathValue: string | undefined;
	/**
	 * False when what the command receives could start with `-` although the source does not say so: the word
	 * starts with an expansion, a glob or a brace expansion, or contains an unquoted expansion (whose value bash
	 * splits into more words). Such a word could be an option; a literal word is judged by its text.
	 */
	readonly cannotBecomeOption: boolean;
	readonly node: SyntaxNode;
}

const NO_NODE: SyntaxNode = { type: "word", named: true, start: 0, end: 0, children: [] };

/** A word that is not in the source (`find`'s default `.`, the operands `xargs` appends at run time). */
export function syntheticWord(text: string, pathValue: string | undefined): BashWord {
	return {
		text,
		literal: pathValue !== undefined,
		pathValue,
		cannotBecomeOption: pathValue !== undefined && !text.startsWith("-"),
		node: NO_NODE,
	};
}

/** Node types that the grammar uses for a word position. */
export const WORD_NODE_TYPES: ReadonlySet<string> = new Set([
	"word",
	"string",
	"raw_string",
	"ansi_c_string",
	"translated_string",
	"concatenation",
	"simple_expansion",
	"expansion",
	"command_substitution",
	"process_substitution",
	"arithmetic_expansion",
	"number",
	"extglob_pattern",
	"brace_expression",
	"regex",
	"test_operator",
	"variable_name",
]);

interface WordBuilder {
	text: string;
	path: string;
	pathKnown: boolean;
	literal: boolean;
	/** Unquoted characters only, for brace-expansion detection across concatenated pieces. */
	unquoted: string;
	first: boolean;
	/** The text before the first run-time part (expansion, glob, brace), while it lasts. */
	fixedPrefix: string;
	prefixOpen: boolean;
	/** An unquoted expansion: bash splits its value into words. */
	splits: boolean;
}

export function evaluateWord(node: SyntaxNode, source: string): BashWord {
	const builder: WordBuilder = {
		text: "",
		path: "",
		pathKnown: true,
		literal: true,
		unquoted: "",
		first: true,
		fixedPrefix: "",
		prefixOpen: true,
		splits: false,
	};
	appendPart(builder, node, source, false);
	const brace = /\{[^{}]*(,|\.\.)[^{}]*\}/.exec(builder.unquoted);
	if (brace !== null) {
		// Brace expansion turns one word into several; `{a,../b}` may even leave the directory.
		builder.literal = false;
		builder.pathKnown = false;
	}
	const prefix = brace === null ? builder.fixedPrefix : builder.fixedPrefix.slice(0, brace.index);
	return {
		text: builder.text,
		literal: builder.literal,
		pathValue: builder.pathKnown ? builder.path : undefined,
		cannotBecomeOption: builder.literal
			? !builder.text.startsWith("-")
			: !builder.splits && prefix !== "" && !prefix.startsWith("-"),
		node,
	};
}

/** `$HOME` and `${HOME}`: the one expansion whose value (the home directory) is known for path purposes. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter syntax, not a template
const HOME_REFERENCES: ReadonlySet<string> = new Set(["$HOME", "${HOME}"]);

/** Token types whose source text is an unquoted word when they have no children. */
const UNQUOTED_TOKEN_TYPES: ReadonlySet<string> = new Set([
	"word",
	"number",
	"extglob_pattern",
	"regex",
	"test_operator",
	"variable_name",
]);

function appendPart(builder: WordBuilder, node: SyntaxNode, source: string, quoted: boolean): void {
	const raw = source.slice(node.start, node.end);
	if (node.children.length === 0 && UNQUOTED_TOKEN_TYPES.has(node.type)) {
		if (quoted) appendQuoted(builder, raw);
		else appendUnquoted(builder, raw);
		return;
	}
	switch (node.type) {
		case "raw_string":
			appendQuoted(builder, raw.slice(1, -1));
			return;
		case "ansi_c_string": {
			const decoded = decodeAnsiC(raw.slice(2, -1));
			if (decoded === undefined) appendRuntime(builder, raw, false, true);
			else appendQuoted(builder, decoded);
			return;
		}
		case "string":
			appendDoubleQuoted(builder, node, source, node.start + 1, node.end - 1);
			return;
		case "translated_string":
		case "concatenation":
			for (const child of node.children) {
				// `$"…"` and a `$` glued to a following string contribute no character of their own.
				if (!child.named && child.type === "$") continue;
				appendPart(builder, child, source, quoted);
			}
			return;
		case "simple_expansion":
		case "expansion":
			appendRuntime(builder, raw, HOME_REFERENCES.has(raw), quoted);
			return;
		default:
			// Substitutions, arithmetic, brace ranges: known only at run time.
			appendRuntime(builder, raw, false, quoted);
	}
}

/** Unquoted word text: backslash escapes removed, globs and a leading tilde noticed. */
function appendUnquoted(builder: WordBuilder, raw: string): void {
	// Whole-string replaces, not a character loop: words can be very long and per-character appends thrash GC.
	const escaped = raw.includes("\\");
	const text = escaped
		? raw.replace(/\\([\s\S])/g, (_match, char: string) => (char === "\n" ? "" : char))
		: raw;
	// Escaped characters become `_` so they count neither as globs nor as brace-expansion syntax.
	const unquoted = escaped
		? raw.replace(/\\([\s\S])/g, (_match, char: string) => (char === "\n" ? "" : "_"))
		: raw;
	if (builder.first && raw.startsWith("~")) {
		const slash = raw.indexOf("/");
		// `~user`, `~+`, `~-` name directories known only at run time.
		if ((slash === -1 ? raw : raw.slice(0, slash)) !== "~") builder.pathKnown = false;
	}
	if (/[*?[]/.test(unquoted)) builder.literal = false;
	if (builder.prefixOpen) {
		const glob = /[*?[{]/.exec(unquoted);
		if (glob === null) builder.fixedPrefix += text;
		else {
			builder.fixedPrefix += unescapedPrefix(raw, glob.index);
			builder.prefixOpen = false;
		}
	}
	builder.text += text;
	// An escaped leading `\~` is a directory named `~`, not home.
	builder.path += builder.first && text.startsWith("~") && !raw.startsWith("~") ? `./${text}` : text;
	builder.unquoted += unquoted;
	builder.first = false;
}

/** The unescaped text of `raw` up to the unescaped character at `index` of its `_`-masked form. */
function unescapedPrefix(raw: string, index: number): string {
	let out = "";
	let masked = 0;
	for (let i = 0; i < raw.length && masked < index; i++, masked++) {
		if (raw[i] === "\\" && i + 1 < raw.length) i++;
		out += raw[i] ?? "";
	}
	return out;
}

function appendQuoted(builder: WordBuilder, value: string): void {
	if (builder.prefixOpen) builder.fixedPrefix += value;
	builder.text += value;
	builder.path += builder.first && value.startsWith("~") ? `./${value}` : value;
	builder.unquoted += "_".repeat(value.length);
	builder.first = false;
}

function appendRuntime(builder: WordBuilder, raw: string, isHome: boolean, quoted: boolean): void {
	// `$HOME` is the user's own home directory, an absolute path: it neither starts with `-` nor splits.
	if (isHome) {
		if (builder.prefixOpen) builder.fixedPrefix += "/";
	} else {
		builder.prefixOpen = false;
		if (!quoted) builder.splits = true;
	}
	builder.text += raw;
	builder.literal = false;
	if (isHome && builder.first) builder.path += "~";
	else builder.pathKnown = false;
	builder.unquoted += "_".repeat(raw.length);
	builder.first = false;
}

/** The inside of `"…"`: literal stretches between the expansions the grammar found. */
function appendDoubleQuoted(
	builder: WordBuilder,
	node: SyntaxNode,
	source: string,
	from: number,
	to: number,
): void {
	let position = from;
	let wroteAny = false;
	for (const child of node.children) {
		if (!child.named || child.type === "string_content") continue;
		if (child.start > position) {
			appendQuoted(builder, unescapeDoubleQuoted(source.slice(position, child.start)));
			wroteAny = true;
		}
		appendPart(builder, child, source, true);
		wroteAny = true;
		position = child.end;
	}
	if (to > position) {
		appendQuoted(builder, unescapeDoubleQuoted(source.slice(position, to)));
		wroteAny = true;
	}
	if (!wroteAny) appendQuoted(builder, "");
}

function unescapeDoubleQuoted(text: string): string {
	return text.replace(/\\([$`"\\\n])/g, (_match, char: string) => (char === "\n" ? "" : char));
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
	a: "\x07",
	b: "\b",
	e: "\x1b",
	E: "\x1b",
	f: "\f",
	n: "\n",
	r: "\r",
	t: "\t",
	v: "\v",
	"\\": "\\",
	"'": "'",
	'"': '"',
	"?": "?",
};

/** `$'…'` escapes as bash decodes them; undefined for the rare forms not decoded here (`\cX`). */
function decodeAnsiC(body: string): string | undefined {
	let out = "";
	for (let i = 0; i < body.length; i++) {
		const char = body[i] ?? "";
		if (char !== "\\") {
			out += char;
			continue;
		}
		const next = body[i + 1];
		if (next === undefined) return undefined;
		const simple = SIMPLE_ESCAPES[next];
		if (simple !== undefined) {
			out += simple;
			i++;
			continue;
		}
		const numeric = /^(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(
			body.slice(i + 1),
		);
		if (numeric === null) return undefined;
		const [whole, octal, hex, u4, u8] = numeric;
		const code = octal !== undefined ? Number.parseInt(octal, 8) : Number.parseInt(hex ?? u4 ?? u8 ?? "", 16);
		if (!Number.isFinite(code) || code > 0x10ffff) return undefined;
		// A NUL ends the string in bash.
		if (code === 0) return out;
		out += String.fromCodePoint(code);
		i += whole.length;
	}
	return out;
}
