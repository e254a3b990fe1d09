import type { ConfigScope } from "./config-schema.ts";
import { describeJsonPath } from "./json-path.ts";

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
