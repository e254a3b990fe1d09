/**
 * JSONC text → validated config, or one error value naming file, JSON path, line and problem.
 * Never throws: a file that cannot be understood must become a value the policy can fail closed on.
 */
import {
	createScanner,
	findNodeAtLocation,
	findNodeAtOffset,
	getNodePath,
	getNodeValue,
	type Node,
	type ParseError,
	parseTree,
	printParseErrorCode,
	stripComments,
} from "jsonc-parser";
import {
	type ConfigFileError,
	type ConfigIssue,
	configFileError,
	describeZodIssue,
	formatJsonPath,
	type JsonPathSegments,
} from "./config-error.ts";
import { type AnyConfig, type ConfigScope, parseConfigValue } from "./config-schema.ts";

/** Config files are small; anything bigger is a mistake or an attack on the loader. */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** The parser and the schema recurse per level; a config needs under ten, and a deeper file must not blow the stack. */
export const MAX_CONFIG_DEPTH = 64;

export interface ParsedConfig {
	readonly status: "loaded";
	readonly file: string;
	readonly scope: ConfigScope;
	/** Project configs validate against the stricter schema; its values are a subset of a user config's. */
	readonly config: AnyConfig;
	/** 1-based line of a JSON path (the nearest existing ancestor when the path itself is absent). */
	readonly lineOf: (path: JsonPathSegments) => number;
}

export interface InvalidConfig {
	readonly status: "invalid";
	readonly file: string;
	readonly scope: ConfigScope;
	readonly error: ConfigFileError;
}

export type ParseConfigResult = ParsedConfig | InvalidConfig;

export function parseConfigText(text: string, file: string, scope: ConfigScope): ParseConfigResult {
	const invalid = (issues: readonly [ConfigIssue, ...ConfigIssue[]]): InvalidConfig => ({
		status: "invalid",
		file,
		scope,
		error: configFileError(file, scope, issues),
	});
	if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) {
		return invalid([{ jsonPath: "", line: null, problem: `file is larger than ${MAX_CONFIG_BYTES} bytes` }]);
	}
	if (stripComments(text).trim() === "") {
		return invalid([
			{ jsonPath: "", line: 1, problem: "the file holds no JSON value; write {} for an empty config" },
		]);
	}
	const lines = lineStarts(text);
	const tooDeep = offsetPastMaxDepth(text);
	if (tooDeep !== null) {
		return invalid([
			{
				jsonPath: "",
				...placeAt(lines, tooDeep),
				problem: `values nest deeper than ${MAX_CONFIG_DEPTH} levels; a config needs a handful`,
			},
		]);
	}
	const errors: ParseError[] = [];
	const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
	const [firstSyntax, ...moreSyntax] = errors.map((e) => syntaxIssue(text, lines, root, e));
	if (firstSyntax) return invalid([firstSyntax, ...moreSyntax]);
	if (root === undefined) {
		return invalid([{ jsonPath: "", line: 1, problem: "the file holds no JSON value" }]);
	}
	const place = (offset: number): { line: number; column: number } => placeAt(lines, offset);
	const lineOf = (path: JsonPathSegments): number => place(nodeOffset(root, path)).line;
	const duplicates = duplicateKeys(root).map(
		({ path, offset }): ConfigIssue => ({
			jsonPath: formatJsonPath(path),
			...place(offset),
			problem: `duplicate key ${JSON.stringify(path[path.length - 1])}`,
		}),
	);
	const raw: unknown = getNodeValue(root);
	const parsed = parseConfigValue(scope, raw);
	const schemaIssues = parsed.success
		? []
		: parsed.error.issues.flatMap((issue) =>
				describeZodIssue(issue, raw).map(
					(p): ConfigIssue => ({
						jsonPath: formatJsonPath(p.path),
						...place(nodeOffset(root, p.path)),
						problem: p.problem,
					}),
				),
			);
	const [first, ...rest] = [...duplicates, ...schemaIssues].sort(
		(a, b) =>
			(a.line ?? 0) - (b.line ?? 0) ||
			(a.column ?? 0) - (b.column ?? 0) ||
			a.jsonPath.localeCompare(b.jsonPath),
	);
	if (first) return invalid([first, ...rest]);
	if (!parsed.success) {
		return invalid([{ jsonPath: "", line: null, problem: "the file does not match the config schema" }]);
	}
	return { status: "loaded", file, scope, config: parsed.data, lineOf };
}

/**
 * What a syntax error means, in words; whether it shows at the end of what came before it (where the missing
 * character belongs); and, for an unclosed object or list, which kind of element it is about.
 */
const SYNTAX: Readonly<
	Record<string, { readonly problem: string; readonly after?: true; readonly open?: "object" | "array" }>
> = {
	CommaExpected: { problem: "a comma is missing after this", after: true },
	ColonExpected: { problem: "a colon is missing after this key", after: true },
	ValueExpected: { problem: "a value is missing here", after: true },
	PropertyNameExpected: { problem: "a key in double quotes is expected here" },
	CloseBraceExpected: { problem: "an object is not closed: a } is missing", after: true, open: "object" },
	CloseBracketExpected: { problem: "a list is not closed: a ] is missing", after: true, open: "array" },
	EndOfFileExpected: { problem: "there is more text after the config's closing }" },
	InvalidSymbol: { problem: "this is not JSON (a stray character or an unquoted word)" },
	UnexpectedEndOfString: { problem: 'a string is not closed: a " is missing' },
	UnexpectedEndOfComment: { problem: "a /* comment is not closed" },
	InvalidCommentToken: { problem: "an invalid comment" },
	UnexpectedEndOfNumber: { problem: "a number is cut off" },
	InvalidNumberFormat: { problem: "an invalid number" },
	InvalidUnicode: { problem: "an invalid \\u escape in a string" },
	InvalidEscapeCharacter: { problem: "an invalid \\ escape in a string" },
	InvalidCharacter: { problem: "a control character inside a string" },
};

/**
 * A syntax error where a person would fix it: a missing comma, colon, value or bracket at the end of what came
 * before (the parser notices at the next token, often on the next line), with the JSON path of the element it is
 * in, from the partial tree the parser still builds.
 */
function syntaxIssue(
	text: string,
	lines: readonly number[],
	root: Node | undefined,
	error: ParseError,
): ConfigIssue {
	const name = printParseErrorCode(error.error);
	const known = Object.hasOwn(SYNTAX, name) ? SYNTAX[name] : undefined;
	const offset = known?.after ? endOfPreviousToken(text, error.offset) : error.offset;
	const inside = known?.after ? Math.max(0, offset - 1) : offset;
	let node = root === undefined ? undefined : findNodeAtOffset(root, inside, true);
	// Nothing parsed where the error is (a stray word as a value): the element is the one just before it.
	if (root !== undefined && (node === undefined || node === root) && !known?.after) {
		node = findNodeAtOffset(root, Math.max(0, endOfPreviousToken(text, offset) - 1), true) ?? node;
	}
	const open = known?.open;
	if (open !== undefined) {
		// The innermost element of that kind that is still open: a closed one ends in its bracket.
		const close = open === "object" ? "}" : "]";
		while (node !== undefined && (node.type !== open || text[node.offset + node.length - 1] === close))
			node = node.parent;
	}
	return {
		jsonPath: formatJsonPath(node === undefined ? [] : elementPath(node)),
		...placeAt(lines, offset),
		problem: `JSONC syntax error: ${known?.problem ?? "the text cannot be read as JSON here"}`,
	};
}

/** The path of a node; for a property (a key whose value is missing or broken), the path of its key. */
function elementPath(node: Node): JsonPathSegments {
	const key = node.type === "property" ? node.children?.[0] : undefined;
	return getNodePath(key ?? node);
}

/** Just past the last character before `offset` that is neither white space nor inside a comment. */
function endOfPreviousToken(text: string, offset: number): number {
	const code = stripComments(text.slice(0, offset), " ");
	let end = code.length;
	while (end > 0 && /\s/.test(code[end - 1] ?? "")) end--;
	return end;
}

/** Where an object or array opens past the depth limit, found by the scanner (which does not recurse). */
function offsetPastMaxDepth(text: string): number | null {
	const scanner = createScanner(text, false);
	let depth = 0;
	// Tokens are told apart by their text: the package types SyntaxKind as a const enum, which this build cannot
	// inline. A string or comment token never starts with a bracket, so a one-character bracket is punctuation.
	for (scanner.scan(); scanner.getTokenOffset() < text.length; scanner.scan()) {
		if (scanner.getTokenLength() !== 1) continue;
		const token = text[scanner.getTokenOffset()];
		if (token === "{" || token === "[") {
			if (++depth > MAX_CONFIG_DEPTH) return scanner.getTokenOffset();
		} else if (token === "}" || token === "]") {
			depth = Math.max(0, depth - 1);
		}
	}
	return null;
}

function lineStarts(text: string): number[] {
	const starts = [0];
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
	return starts;
}

/** 1-based line and column of `offset` (columns count UTF-16 code units, as editors' JSON tools do). */
function placeAt(starts: readonly number[], offset: number): { line: number; column: number } {
	let lo = 0;
	let hi = starts.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if ((starts[mid] ?? 0) <= offset) lo = mid;
		else hi = mid - 1;
	}
	return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

/** Offset of the node at `path`, falling back to the nearest ancestor; a property's key line wins over its value's. */
function nodeOffset(root: Node, path: JsonPathSegments): number {
	for (let depth = path.length; depth >= 0; depth--) {
		const node = findNodeAtLocation(root, path.slice(0, depth));
		if (node) return node.parent?.type === "property" ? node.parent.offset : node.offset;
	}
	return root.offset;
}

interface DuplicateKey {
	readonly path: JsonPathSegments;
	readonly offset: number;
}

/** The parser keeps the last of two equal keys; a file that says two things is an error, not a coin toss. */
function duplicateKeys(node: Node, path: JsonPathSegments = []): DuplicateKey[] {
	const found: DuplicateKey[] = [];
	if (node.type === "object") {
		const seen = new Set<string>();
		for (const property of node.children ?? []) {
			const [keyNode, valueNode] = property.children ?? [];
			if (!keyNode || typeof keyNode.value !== "string") continue;
			const key = keyNode.value;
			if (seen.has(key)) found.push({ path: [...path, key], offset: keyNode.offset });
			seen.add(key);
			if (valueNode) found.push(...duplicateKeys(valueNode, [...path, key]));
		}
	} else if (node.type === "array") {
		(node.children ?? []).forEach((child, index) => {
			found.push(...duplicateKeys(child, [...path, index]));
		});
	}
	return found;
}
