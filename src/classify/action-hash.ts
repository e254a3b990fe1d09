/**
 * Canonical JSON and the action hash. Two actions that mean the same thing hash the same however their JSON
 * was written (key order, whitespace), or however the blanks between a bash command's words were spaced;
 * anything else changes the hash.
 */
import { hash } from "node:crypto";
import type { Tier } from "../vocabulary/tier.ts";
import type { BashParseResult, SyntaxNode } from "./bash/bash-parser.ts";

const MAX_DEPTH = 200;

/**
 * JSON with object keys sorted (by UTF-16 code units) at every level, no whitespace, arrays in order, `undefined`
 * object members dropped (and `undefined` array items written as `null`, as JSON.stringify does).
 * Throws on values JSON cannot carry faithfully (bigint, cycles, absurd depth): the gate then fails closed.
 */
export function canonicalJson(value: unknown): string {
	return write(value, 0, new Set());
}

function write(value: unknown, depth: number, seen: Set<object>): string {
	if (depth > MAX_DEPTH) throw new Error(`canonical JSON: nested deeper than ${MAX_DEPTH} levels`);
	if (value === null) return "null";
	switch (typeof value) {
		case "string":
			return JSON.stringify(value);
		case "number":
			return Number.isFinite(value) ? JSON.stringify(value) : "null";
		case "boolean":
			return value ? "true" : "false";
		case "bigint":
			throw new Error("canonical JSON: bigint has no JSON form");
		case "object":
			break;
		default:
			return "null";
	}
	if (seen.has(value)) throw new Error("canonical JSON: the value contains a cycle");
	seen.add(value);
	try {
		if (Array.isArray(value)) {
			return `[${value.map((item: unknown) => (item === undefined ? "null" : write(item, depth + 1, seen))).join(",")}]`;
		}
		// The default sort compares UTF-16 code units, the order canonical JSON promises.
		const keys = Object.keys(value).sort();
		let out = "";
		for (const key of keys) {
			const item: unknown = Reflect.get(value, key);
			if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
			out += `${out === "" ? "" : ","}${JSON.stringify(key)}:${write(item, depth + 1, seen)}`;
		}
		return `{${out}}`;
	} finally {
		seen.delete(value);
	}
}

export interface HashedAction {
	readonly tool: string;
	readonly input: Readonly<Record<string, unknown>>;
	readonly cwd: string;
	readonly tier: Tier;
}

/** SHA-256 (hex) of the canonical `{tool, input, cwd, tier}`. */
export function actionHash(action: HashedAction): string {
	const canonical = canonicalJson({
		tool: action.tool,
		input: action.input,
		cwd: action.cwd,
		tier: action.tier,
	});
	return hash("sha256", canonical, "hex");
}

/** Nodes whose whole text is significant even where the grammar gives it no token of its own. */
const VERBATIM_TYPES = new Set([
	"string",
	"raw_string",
	"ansi_c_string",
	"translated_string",
	"heredoc_body",
	"comment",
]);

/**
 * The form of a bash command that the action hash covers: trimmed, with runs of unquoted blanks between words
 * collapsed to one space. Quoted text, escapes, comments and heredoc bodies are kept byte for byte, so
 * `rm  -rf   x` and ` rm -rf x ` hash alike while `echo "a  b"` and `echo "a b"` do not.
 */
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
