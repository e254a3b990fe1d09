/**
 * Turns zod issues into problems a person can act on, each at the exact JSON path it concerns
 * (an unknown key is reported at the key itself, not at the object holding it).
 */
import type { z } from "zod";
import type { JsonPathSegments } from "./json-path.ts";

export interface LocatedProblem {
	readonly path: JsonPathSegments;
	readonly problem: string;
}

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
