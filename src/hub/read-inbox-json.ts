import type { z } from "zod";
import { readInboxFile } from "./read-inbox-file.ts";

/**
 * A JSON file from an inbox, parsed with `schema`; null when it is missing, unsafe to read, too big, not JSON
 * or not of that shape — every broken file counts as no file, and none of them throws.
 */
export function readInboxJson<T>(file: string, maxBytes: number, schema: z.ZodType<T>): T | null {
	const read = readInboxFile(file, maxBytes);
	if (!read.ok) return null;
	let raw: unknown;
	try {
		raw = JSON.parse(read.text);
	} catch {
		return null;
	}
	const parsed = schema.safeParse(raw);
	return parsed.success ? parsed.data : null;
}
