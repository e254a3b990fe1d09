/**
 * The frontmatter of a pi-subagents agent file, read with the same rules pi-subagents applies: `key: value` lines,
 * quoted values unquoted, and a key with an empty value (or `|` / `>`) taking the more-indented lines after it.
 * Only what the doctor needs: the raw string of each key.
 */
export function parseAgentFrontmatter(content: string): ReadonlyMap<string, string> | null {
	const text = content.replace(/\r\n/g, "\n");
	if (!text.startsWith("---")) return null;
	const end = text.indexOf("\n---", 3);
	if (end < 0) return null;
	const fields = new Map<string, string>();
	let block: { key: string; indent: number; lines: string[] } | null = null;
	const flush = (): void => {
		if (block === null) return;
		const lines = block.lines.filter((line) => line.trim() !== "");
		const margin = Math.min(...lines.map((line) => line.search(/\S/)));
		fields.set(block.key, lines.map((line) => line.slice(margin)).join("\n"));
		block = null;
	};
	for (const line of text.slice(4, end).split("\n")) {
		const indent = line.search(/\S|$/);
		if (block !== null && (indent > block.indent || line.trim() === "")) {
			block.lines.push(line);
			continue;
		}
		flush();
		const match = /^([\w-]+):\s*(.*)$/.exec(line);
		if (!match?.[1] || match[2] === undefined) continue;
		const raw = match[2].trim();
		const quoted = /^(".*"|'.*')$/.test(raw);
		const value = quoted ? raw.slice(1, -1) : raw;
		if (value === "" || (!quoted && /^[|>]-?$/.test(raw))) block = { key: match[1], indent, lines: [] };
		else fields.set(match[1], value);
	}
	flush();
	return fields;
}

/** A frontmatter list: comma separated, or one `- item` per line (pi-subagents' `parseFrontmatterList`). */
export function frontmatterList(raw: string | undefined): string[] | undefined {
	if (raw === undefined) return undefined;
	return raw
		.split("\n")
		.flatMap((line) => {
			const value = line.trim();
			return (/^-\s+(.+)$/.exec(value)?.[1] ?? value).split(",");
		})
		.map((value) => value.trim())
		.filter((value) => value !== "");
}
