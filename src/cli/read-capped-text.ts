import { closeSync, openSync, readSync } from "node:fs";

/**
 * Read a file as UTF-8, at most `maxBytes + 1` bytes of it; `truncated` when there was more. Bounds memory when a config
 * path points at something huge (the parser rejects oversized files anyway).
 */
export function readCappedText(file: string, maxBytes: number): { text: string; truncated: boolean } {
	const fd = openSync(file, "r");
	try {
		const buffer = Buffer.alloc(maxBytes + 1);
		let length = 0;
		while (length < buffer.length) {
			const read = readSync(fd, buffer, length, buffer.length - length, null);
			if (read === 0) break;
			length += read;
		}
		return { text: buffer.subarray(0, length).toString("utf8"), truncated: length > maxBytes };
	} finally {
		closeSync(fd);
	}
}
