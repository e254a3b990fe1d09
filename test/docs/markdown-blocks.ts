/** Fenced code blocks of this repository's markdown files, for the tests that hold the docs to the code. */
import { parse as parseJsonc } from "jsonc-parser";

export interface CodeBlock {
	readonly lang: string;
	readonly text: string;
	/** 1-based line of the opening fence. */
	readonly line: number;
	/** The `<!-- readme-test: … -->` comment right before the block, if any (its text after the colon). */
	readonly marker: string | null;
}

export function codeBlocks(markdown: string): CodeBlock[] {
	const blocks: CodeBlock[] = [];
	for (const match of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
		const before = markdown.slice(0, match.index);
		const line = before.split("\n").length;
		const marker = /<!-- readme-test: ([^>]*?) -->\s*$/.exec(before)?.[1] ?? null;
		blocks.push({ lang: match[1] ?? "", text: match[2] ?? "", line, marker });
	}
	return blocks;
}

const CONFIG_MARKERS = ["rules", "tiers", "agentRules", "authorizerChain"];

/** JSON/JSONC blocks whose top level is an object with a key only a pi-permission-hub config has. */
export function configBlocks(markdown: string): CodeBlock[] {
	return codeBlocks(markdown).filter((block) => {
		if (block.lang !== "json" && block.lang !== "jsonc") return false;
		const value: unknown = parseJsonc(block.text, [], { allowTrailingComma: true });
		return (
			typeof value === "object" &&
			value !== null &&
			!Array.isArray(value) &&
			CONFIG_MARKERS.some((key) => Object.hasOwn(value, key))
		);
	});
}
