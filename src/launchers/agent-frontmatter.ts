/**
 * The frontmatter of a pi-subagents agent file, read by pi-subagents' rules (no YAML beyond them): `key: value`
 * lines, a quoted value unquoted, and a key with an empty value (or `|`, `|-`, `>`, `>-`) taking the
 * more-indented lines after it, their common indentation removed; `>` blocks folded. A key given twice keeps
 * the last value. Flow lists (`[a, b]`) are not lists there either.
 */
export function parseAgentFrontmatter(content: string): ReadonlyMap<string, string> {
	const fields = new Map<string, string>();
	const text = content.replace(/\r\n/g, "\n");
	if (!text.startsWith("---")) return fields;
	const end = text.indexOf("\n---", 3);
	if (end < 0) return fields;
	let block: { key: string; indent: number; scalar: "folded" | "literal" | null; lines: string[] } | null =
		null;
	const flush = (): void => {
		if (block === null) return;
		const stripped = dedent(block.lines);
		fields.set(block.key, block.scalar === "folded" ? fold(stripped) : stripped);
		block = null;
	};
	for (const line of text.slice(4, end).split("\n")) {
		const indent = line.search(/\S|$/);
		if (block !== null && (indent > block.indent || (block.scalar !== null && line.trim() === ""))) {
			block.lines.push(line);
			continue;
		}
		flush();
		const match = /^([\w-]+):\s*(.*)$/.exec(line);
		if (!match?.[1] || match[2] === undefined) continue;
		const raw = match[2].trim();
		const quoted = /^(".*"|'.*')$/.test(raw);
		const value = quoted ? raw.slice(1, -1) : raw;
		const scalar = quoted
			? null
			: raw === ">" || raw === ">-"
				? "folded"
				: raw === "|" || raw === "|-"
					? "literal"
					: null;
		if (value === "" || scalar !== null) block = { key: match[1], indent, scalar, lines: [] };
		else fields.set(match[1], value);
	}
	flush();
	return fields;
}

/** The block's lines without the indentation of its first indented line (removed wherever a line starts with it). */
function dedent(lines: readonly string[]): string {
	const raw = lines.join("\n");
	const prefix = /^[ \t]+(?=\S)/m.exec(raw)?.[0] ?? "";
	if (prefix === "") return raw;
	return raw
		.split("\n")
		.map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
		.join("\n")
		.replace(/^\n/, "");
}

/** A folded (`>`) block: lines joined by spaces, more-indented lines and blank-line breaks kept as line breaks. */
function fold(block: string): string {
	let folded = "";
	let started = false;
	let previousIndented = false;
	let blanks = 0;
	for (const line of block.split("\n")) {
		const current = line.trimEnd();
		if (current.trim() === "") {
			if (started) blanks++;
			continue;
		}
		const indented = current.length > current.trimStart().length;
		if (started) {
			const extra = previousIndented || indented ? 1 : 0;
			folded += blanks > 0 ? "\n".repeat(blanks + extra) : extra === 1 ? "\n" : " ";
		}
		folded += current;
		started = true;
		previousIndented = indented;
		blanks = 0;
	}
	return folded.trim();
}

/** A frontmatter list: one item per line (a leading `- ` dropped), each line split on commas (pi-subagents' rule). */
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
