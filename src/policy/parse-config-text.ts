/**
 * JSONC text → validated config, or one error value naming file, JSON path, line and problem.
 * Never throws: a file that cannot be understood must become a value the policy can fail closed on.
 */
import {
	findNodeAtLocation,
	getNodeValue,
	type Node,
	type ParseError,
	parseTree,
	printParseErrorCode,
	stripComments,
} from "jsonc-parser";
import { type ConfigFileError, type ConfigIssue, configFileError } from "./config-error.ts";
import { type ConfigScope, schemaForScope, type UserConfig } from "./config-schema.ts";
import { describeZodIssue } from "./describe-zod-issue.ts";
import { formatJsonPath, type JsonPathSegments } from "./json-path.ts";

/** Config files are small; anything bigger is a mistake or an attack on the loader. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export interface ParsedConfig {
	readonly status: "loaded";
	readonly file: string;
	readonly scope: ConfigScope;
	/** Project configs validate against the stricter schema; its values are a subset of a user config's. */
	readonly config: UserConfig;
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
	const errors: ParseError[] = [];
	const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
	const [firstSyntax, ...moreSyntax] = errors.map(
		(e): ConfigIssue => ({
			jsonPath: "",
			line: lineAt(lines, e.offset),
			problem: `JSONC syntax error: ${describeParseError(printParseErrorCode(e.error))}`,
		}),
	);
	if (firstSyntax) return invalid([firstSyntax, ...moreSyntax]);
	if (root === undefined) {
		return invalid([{ jsonPath: "", line: 1, problem: "the file holds no JSON value" }]);
	}
	const lineOf = (path: JsonPathSegments): number => lineAt(lines, nodeOffset(root, path));
	const duplicates = duplicateKeys(root).map(
		({ path, offset }): ConfigIssue => ({
			jsonPath: formatJsonPath(path),
			line: lineAt(lines, offset),
			problem: `duplicate key ${JSON.stringify(path[path.length - 1])}`,
		}),
	);
	const raw: unknown = getNodeValue(root);
	const parsed = schemaForScope(scope).safeParse(raw);
	const schemaIssues = parsed.success
		? []
		: parsed.error.issues.flatMap((issue) =>
				describeZodIssue(issue, raw).map(
					(p): ConfigIssue => ({
						jsonPath: formatJsonPath(p.path),
						line: lineOf(p.path),
						problem: p.problem,
					}),
				),
			);
	const [first, ...rest] = [...duplicates, ...schemaIssues].sort(
		(a, b) => (a.line ?? 0) - (b.line ?? 0) || a.jsonPath.localeCompare(b.jsonPath),
	);
	if (first) return invalid([first, ...rest]);
	if (!parsed.success) {
		return invalid([{ jsonPath: "", line: null, problem: "the file does not match the config schema" }]);
	}
	return { status: "loaded", file, scope, config: parsed.data, lineOf };
}

function describeParseError(code: string): string {
	return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function lineStarts(text: string): number[] {
	const starts = [0];
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
	return starts;
}

function lineAt(starts: readonly number[], offset: number): number {
	let lo = 0;
	let hi = starts.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if ((starts[mid] ?? 0) <= offset) lo = mid;
		else hi = mid - 1;
	}
	return lo + 1;
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
