import { readFileSync } from "node:fs";
import { errorMessage } from "../vocabulary/error-message.ts";
import { brokenConfigPath } from "./config-absence.ts";
import { configFileError } from "./config-error.ts";
import type { MissingConfig } from "./config-file-state.ts";
import type { ConfigScope } from "./config-schema.ts";
import { fsErrorCode } from "./fs-error-code.ts";
import { type ParseConfigResult, parseConfigText } from "./parse-config-text.ts";

/** Reads a file's text; injectable so callers (and tests) can observe how often files are actually read. */
export type ReadText = (file: string) => string;

export const readTextFromDisk: ReadText = (file) => readFileSync(file, "utf8");

/**
 * A missing file is no file; any other failure to read, a dangling link or a file where a directory should be
 * included, is an invalid file (the policy fails closed).
 */
export function readConfigFile(
	file: string,
	scope: ConfigScope,
	readText: ReadText = readTextFromDisk,
): ParseConfigResult | MissingConfig {
	let text: string;
	try {
		text = readText(file);
	} catch (error) {
		const code = fsErrorCode(error);
		const broken = code === "ENOENT" || code === "ENOTDIR" ? brokenConfigPath(file) : undefined;
		if (broken === null) return { status: "missing", file, scope };
		const problem = `cannot read the file: ${broken ?? errorMessage(error)}`;
		return {
			status: "invalid",
			file,
			scope,
			error: configFileError(file, scope, [{ jsonPath: "", line: null, problem }]),
		};
	}
	return parseConfigText(text, file, scope);
}
