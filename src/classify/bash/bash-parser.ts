/**
 * The bash grammar (tree-sitter-bash on web-tree-sitter), loaded once per process.
 * Parsing is synchronous once loaded; the tree is copied into plain JS objects in one cursor walk because every
 * property read on a wasm-backed node crosses the wasm boundary, and the analysis reads each node many times.
 */
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { Language, Parser, type Tree } from "web-tree-sitter";
import { processWide } from "../../process-wide.ts";
import { compiledWithBaselineOnly } from "./baseline-wasm.ts";

/** A syntax node copied out of the wasm tree. Ranges are UTF-16 offsets into the parsed source. */
export interface SyntaxNode {
	readonly type: string;
	/** Named nodes are grammar rules (`command`, `word`); anonymous ones are tokens (`&&`, `>`, `$(`). */
	readonly named: boolean;
	readonly start: number;
	readonly end: number;
	readonly children: readonly SyntaxNode[];
}

export type BashParseResult =
	| { readonly ok: true; readonly source: string; readonly root: SyntaxNode }
	| { readonly ok: false; readonly source: string; readonly reason: string };

export interface BashParser {
	/** Parses a bash program. Never throws: anything the grammar rejects comes back as `ok: false`. */
	parse(source: string): BashParseResult;
	/** Milliseconds the first load took (wasm runtime + grammar), for cold-start figures. */
	readonly loadMs: number;
}

/**
 * Bounds on the work one command may cause (classification stays within ~50 ms whatever the input); past them
 * the command is not analysed and takes the highest tier. A long heredoc is one node, so file contents written
 * with `cat <<EOF` stay well within them; thousands of commands or words in one call do not.
 */
export const MAX_BASH_SOURCE_LENGTH = 256 * 1024;
/** Deeper trees are refused instead of risking the JS stack in the analysis. */
export const MAX_SYNTAX_DEPTH = 200;
export const MAX_SYNTAX_NODES = 2500;
/**
 * Some shapes (a pipeline of a thousand commands) take the grammar far longer per byte than others. 25 ms leaves
 * room under the 50 ms bound on the whole classification on a loaded machine; a command a person or model
 * writes parses in well under a millisecond.
 */
export const PARSE_BUDGET_MS = 25;

/**
 * pi gives every extension instance (and every in-process subagent) its own copy of this module, so the
 * shared loader lives in a process-wide slot: the grammar is compiled once per process, not per session. A
 * failed load is forgotten so the next call retries.
 */
export function loadBashParser(): Promise<BashParser> {
	return processWide<() => Promise<BashParser>>("bash-parser.v1", () =>
		sharedUntilFailure(createBashParser),
	)();
}

/**
 * A lazily started async value shared by every caller, except that a failure is not kept: the next call starts
 * over (a failed grammar load must not disable classification for the rest of the process).
 */
export function sharedUntilFailure<T>(start: () => Promise<T>): () => Promise<T> {
	let current: Promise<T> | undefined;
	return () => {
		if (current === undefined) {
			const attempt = start();
			current = attempt;
			attempt.catch(() => {
				if (current === attempt) current = undefined;
			});
		}
		return current;
	};
}

async function createBashParser(): Promise<BashParser> {
	const started = performance.now();
	const grammarPath = createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
	const language = await compiledWithBaselineOnly(async () => {
		await Parser.init();
		return Language.load(grammarPath);
	});
	const parser = new Parser();
	parser.setLanguage(language);
	const typeNames = language.types;
	const namedByTypeId = typeNames.map((name, id) => name !== undefined && language.nodeTypeIsNamed(id));
	const loadMs = performance.now() - started;

	const parseOnce = (source: string): BashParseResult => {
		if (source.length > MAX_BASH_SOURCE_LENGTH) {
			return {
				ok: false,
				source,
				reason: `the command is longer than ${MAX_BASH_SOURCE_LENGTH} characters`,
			};
		}
		let tree: Tree | null = null;
		try {
			const deadline = performance.now() + PARSE_BUDGET_MS;
			let overTime = false;
			tree = parser.parse(source, null, {
				progressCallback: () => {
					overTime ||= performance.now() > deadline;
					return overTime;
				},
			});
			if (overTime) {
				return { ok: false, source, reason: `the command takes longer than ${PARSE_BUDGET_MS} ms to parse` };
			}
			if (tree === null) return { ok: false, source, reason: "the bash parser returned no tree" };
			if (tree.rootNode.hasError) return { ok: false, source, reason: "the command has a bash syntax error" };
			const root = copyTree(tree, typeNames, namedByTypeId);
			if (root === "too deep") {
				return { ok: false, source, reason: `the command nests deeper than ${MAX_SYNTAX_DEPTH} levels` };
			}
			if (root === "too large") {
				return {
					ok: false,
					source,
					reason: `the command has more than ${MAX_SYNTAX_NODES} parts to analyse`,
				};
			}
			return { ok: true, source, root };
		} catch (error) {
			return { ok: false, source, reason: `the bash parser failed: ${String(error)}` };
		} finally {
			tree?.delete();
		}
	};
	return {
		loadMs,
		parse(source: string): BashParseResult {
			const first = parseOnce(source);
			// The grammar takes a backslash-newline for a blank; bash removes it and joins the words (`r\⏎m` is rm).
			if (!first.ok || !source.includes("\\\n")) return first;
			const joined = joinContinuedLines(source, first.root);
			return joined === source ? first : parseOnce(joined);
		},
	};
}

/** Where bash keeps a backslash-newline as it is: single quotes, `$'…'`, comments, heredocs with a quoted delimiter. */
const KEEPS_CONTINUATIONS = new Set(["raw_string", "ansi_c_string", "comment"]);

/**
 * The program as bash reads it: every backslash-newline removed, except inside single quotes, `$'…'`, comments
 * and the bodies of heredocs whose delimiter is quoted. An escaped backslash before a newline is not a
 * continuation.
 */
export function joinContinuedLines(source: string, root: SyntaxNode): string {
	const kept: [number, number][] = [];
	const stack: SyntaxNode[] = [root];
	while (stack.length > 0) {
		const node = stack.pop();
		if (node === undefined) break;
		if (KEEPS_CONTINUATIONS.has(node.type)) {
			kept.push([node.start, node.end]);
			continue;
		}
		if (node.type === "heredoc_redirect") {
			const start = node.children.find((child) => child.type === "heredoc_start");
			const quoted = start !== undefined && /['"\\]/.test(source.slice(start.start, start.end));
			const body = node.children.find((child) => child.type === "heredoc_body");
			if (quoted && body !== undefined) kept.push([body.start, body.end]);
		}
		stack.push(...node.children);
	}
	let out = "";
	let position = 0;
	for (let i = source.indexOf("\\\n"); i !== -1; i = source.indexOf("\\\n", i + 1)) {
		if (kept.some(([start, end]) => i >= start && i < end)) continue;
		let backslashes = 1;
		while (i - backslashes >= 0 && source[i - backslashes] === "\\") backslashes++;
		if (backslashes % 2 === 0) continue;
		out += source.slice(position, i);
		position = i + 2;
	}
	return out + source.slice(position);
}

interface MutableNode {
	type: string;
	named: boolean;
	start: number;
	end: number;
	children: MutableNode[];
}

/** Named node types that never have children in the bash grammar: no need to ask wasm for a first child. */
const LEAF_TYPES: ReadonlySet<string> = new Set([
	"word",
	"variable_name",
	"special_variable_name",
	"file_descriptor",
	"heredoc_start",
	"heredoc_end",
	"heredoc_content",
	"string_content",
	"raw_string",
	"ansi_c_string",
	"comment",
	"test_operator",
	"extglob_pattern",
	"regex",
]);

/** Iterative pre-order walk (no recursion, so deep input cannot overflow the stack), within the bounds above. */
function copyTree(
	tree: Tree,
	typeNames: readonly string[],
	namedByTypeId: readonly boolean[],
): SyntaxNode | "too deep" | "too large" {
	const cursor = tree.walk();
	try {
		const read = (): MutableNode => {
			const typeId = cursor.nodeTypeId;
			const type = typeNames[typeId] ?? "ERROR";
			const named = namedByTypeId[typeId] ?? true;
			const start = cursor.startIndex;
			// An anonymous token's text is its type (`&&`, `$(`), so its end needs no call into wasm.
			const end = named ? cursor.endIndex : start + type.length;
			return { type, named, start, end, children: [] };
		};
		const root = read();
		let count = 1;
		const ancestors: MutableNode[] = [];
		let current = root;
		for (;;) {
			const mayHaveChildren = current.named && !LEAF_TYPES.has(current.type);
			if (mayHaveChildren && cursor.gotoFirstChild()) {
				ancestors.push(current);
				if (ancestors.length > MAX_SYNTAX_DEPTH) return "too deep";
			} else {
				while (!cursor.gotoNextSibling()) {
					if (ancestors.length === 0 || !cursor.gotoParent()) return root;
					ancestors.pop();
				}
			}
			const parent = ancestors[ancestors.length - 1];
			if (parent === undefined) return root;
			current = read();
			parent.children.push(current);
			if (++count > MAX_SYNTAX_NODES) return "too large";
		}
	} finally {
		cursor.delete();
	}
}
