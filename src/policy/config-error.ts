/**
 * What is wrong with a config file, and where: each problem at the JSON path it concerns, with its line and
 * column, in words a person can act on. zod issues are translated here (an unknown key is reported at the key
 * itself, not at the object holding it).
 */
import type * as z from "../vocabulary/zod.ts";
import type { ConfigScope } from "./config-schema.ts";

/**
 * One thing wrong with a config file. `line` and `column` are 1-based; `line` is null when the problem has no
 * place in the text. `jsonPath` is the element the problem is in (`rules[3]`), "" for the top level.
 */
export interface ConfigIssue {
	readonly jsonPath: string;
	readonly line: number | null;
	readonly column?: number;
	readonly problem: string;
}

/** `line 4, column 7` (or just the line), for messages. */
export function placeText(issue: Pick<ConfigIssue, "line" | "column">): string {
	if (issue.line === null) return "";
	return issue.column === undefined ? `line ${issue.line}` : `line ${issue.line}, column ${issue.column}`;
}

/**
 * Why a config file cannot be used. The first issue is repeated at the top level so one message can name file,
 * path, line and problem; `issues` holds all of them (for a `validate` command).
 */
export interface ConfigFileError {
	readonly file: string;
	readonly scope: ConfigScope;
	readonly jsonPath: string;
	readonly line: number | null;
	readonly column?: number;
	readonly problem: string;
	readonly issues: readonly ConfigIssue[];
	/** `config error in <file> at <path> (line N): <problem> (and N more problems)`. */
	readonly message: string;
}

export function configFileError(
	file: string,
	scope: ConfigScope,
	issues: readonly [ConfigIssue, ...ConfigIssue[]],
): ConfigFileError {
	const [first] = issues;
	const place = placeText(first);
	const where = `${describeJsonPath(first.jsonPath)}${place === "" ? "" : ` (${place})`}`;
	const more = issues.length - 1;
	const tail = more === 0 ? "" : ` (and ${more} more problem${more === 1 ? "" : "s"})`;
	return {
		file,
		scope,
		jsonPath: first.jsonPath,
		line: first.line,
		...(first.column === undefined ? {} : { column: first.column }),
		problem: first.problem,
		issues,
		message: `config error in ${file} at ${where}: ${first.problem}${tail}`,
	};
}

/** What the gate tells the model (and the human) while a broken config blocks everything. */
export function configErrorBlockReason(error: ConfigFileError): string {
	return `${error.message}; all tool calls are blocked until it is fixed`;
}

/** A location inside a config file, as the segments zod and jsonc-parser use. */
export type JsonPathSegments = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `["rules", 2, "action"]` → `rules[2].action`; keys that are not identifiers are quoted: `toolTiers["my-tool"]`. */
export function formatJsonPath(segments: JsonPathSegments): string {
	let out = "";
	for (const segment of segments) {
		if (typeof segment === "number") out += `[${segment}]`;
		else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
		else out += `[${JSON.stringify(segment)}]`;
	}
	return out;
}

/** How a path reads in a message: the top level has no path of its own. */
export function describeJsonPath(jsonPath: string): string {
	return jsonPath === "" ? "the top level" : jsonPath;
}

export interface LocatedProblem {
	readonly path: JsonPathSegments;
	readonly problem: string;
}

/** A zod issue as problems a person can act on, each at the exact JSON path it concerns. */
export function describeZodIssue(issue: z.core.$ZodIssue, raw: unknown): LocatedProblem[] {
	const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
	const value = valueAt(raw, path);
	const missing =
		value === undefined && path.length > 0 && !(issue.code === "invalid_type" && issue.expected === "never");
	if (
		missing &&
		(issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union")
	) {
		return [{ path, problem: `missing required key ${JSON.stringify(last(path))}` }];
	}
	switch (issue.code) {
		case "unrecognized_keys":
			return issue.keys.map((key) => ({
				path: [...path, key],
				problem: `unknown key ${JSON.stringify(key)}`,
			}));
		case "invalid_value":
			return [{ path, problem: `${oneOf(issue.values)}${got(value)}` }];
		case "invalid_union":
			if (issue.discriminator !== undefined && "options" in issue && issue.options !== undefined) {
				return [{ path, problem: `${oneOf(issue.options)}${got(value)}` }];
			}
			return [{ path, problem: issue.message }];
		case "invalid_type":
			if (issue.expected === "never") return [{ path, problem: issue.message }];
			return [{ path, problem: `expected ${article(issue.expected)}, got ${typeName(value)}` }];
		case "too_small":
			return [{ path, problem: tooSmall(issue) }];
		case "too_big":
			return [{ path, problem: tooBig(issue) }];
		case "invalid_key":
			return [
				{ path, problem: `invalid key: ${issue.issues.map((inner) => tooSmallOrMessage(inner)).join("; ")}` },
			];
		default:
			return [{ path, problem: issue.message }];
	}
}

function valueAt(raw: unknown, path: JsonPathSegments): unknown {
	let current = raw;
	for (const segment of path) {
		if (current === null || typeof current !== "object") return undefined;
		if (!Object.hasOwn(current, segment)) return undefined;
		current = (current as Record<string | number, unknown>)[segment];
	}
	return current;
}

function last(path: JsonPathSegments): string | number {
	return path[path.length - 1] ?? "";
}

function oneOf(values: readonly unknown[]): string {
	const list = values.map((v) => JSON.stringify(v));
	return list.length === 1 ? `must be ${list[0]}` : `must be one of ${list.join(", ")}`;
}

function got(value: unknown): string {
	if (value === undefined) return "";
	const text = JSON.stringify(value);
	return ` (got ${text.length > 60 ? `${text.slice(0, 57)}...` : text})`;
}

function typeName(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "object") return "an object";
	if (typeof value === "number" && !Number.isInteger(value)) return `a fractional number (${value})`;
	return `${article(typeof value)} (${JSON.stringify(value)})`;
}

function article(expected: string): string {
	if (expected === "int") return "an integer";
	if (expected === "array" || expected === "object") return `an ${expected}`;
	return `a ${expected}`;
}

function tooSmall(issue: z.core.$ZodIssueTooSmall): string {
	if (issue.origin === "string")
		return Number(issue.minimum) <= 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
	if (issue.origin === "array") return `must have at least ${issue.minimum} entries`;
	return issue.inclusive ? `must be at least ${issue.minimum}` : `must be greater than ${issue.minimum}`;
}

function tooBig(issue: z.core.$ZodIssueTooBig): string {
	if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
	if (issue.origin === "array") return `must have at most ${issue.maximum} entries`;
	return issue.inclusive ? `must be at most ${issue.maximum}` : `must be less than ${issue.maximum}`;
}

function tooSmallOrMessage(issue: z.core.$ZodIssue): string {
	return issue.code === "too_small" && issue.origin === "string" ? "must not be empty" : issue.message;
}
