import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import { errorMessage } from "../vocabulary/error-message.ts";

/**
 * `yaml`, loaded on first use: only a @tintinweb/pi-subagents call needs it, and bundled it would add a third to
 * what every session start parses (the bundle keeps it external).
 */
let yaml: typeof Yaml | undefined;
function yamlModule(): typeof Yaml {
	if (yaml === undefined) {
		const loaded: typeof Yaml = createRequire(import.meta.url)("yaml");
		yaml = loaded;
	}
	return yaml;
}

/** An agent file's frontmatter as @tintinweb/pi-subagents gets it from pi's `parseFrontmatter`: YAML values. */
export type TintinwebFrontmatter =
	| { readonly state: "parsed"; readonly fields: ReadonlyMap<string, unknown> }
	/** Not YAML: pi's parser throws, and the launcher's loading of agents with it, so the call fails. */
	| { readonly state: "invalid"; readonly problem: string };

/**
 * pi's `parseFrontmatter` (with the `yaml` version pi depends on): a leading byte order mark dropped, line ends
 * made `\n`, the text between a first line `---` and the next `\n---` parsed as YAML; no such block, an empty one,
 * or a YAML value that is not a mapping gives no fields.
 */
export function parseTintinwebFrontmatter(content: string): TintinwebFrontmatter {
	const text = (content.startsWith("\uFEFF") ? content.slice(1) : content)
		.replace(/\r\n/g, "\n")
		.replace(/\r/g, "\n");
	const none = { state: "parsed", fields: new Map() } as const;
	if (!text.startsWith("---")) return none;
	const end = text.indexOf("\n---", 3);
	if (end === -1) return none;
	const block = text.slice(4, end);
	if (block === "") return none;
	let value: unknown;
	try {
		value = yamlModule().parse(block);
	} catch (error) {
		return { state: "invalid", problem: errorMessage(error) };
	}
	if (typeof value !== "object" || value === null) return none;
	return { state: "parsed", fields: new Map(Object.entries(value)) };
}
