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
