import { createReadStream } from "node:fs";
import { type AuditEntry, parseAuditLine } from "./audit-entry.ts";

/** A line longer than this is not one we wrote; skipping it keeps memory bounded on hostile files. */
const MAX_LINE_BYTES = 1024 * 1024;

export interface AuditReadStats {
	entries: number;
	corrupt: number;
}

/**
 * Stream a JSONL audit log, calling `onEntry` for each valid line. Corrupt, partial or oversized lines are
 * counted and skipped: a torn last line (a writer killed mid-append) never stops a reader. Blank lines are
 * skipped uncounted; CRLF line ends are accepted. A missing or unreadable file rejects.
 */
export async function readAuditLog(
	file: string,
	onEntry: (entry: AuditEntry) => void,
	stats: AuditReadStats = { entries: 0, corrupt: 0 },
): Promise<AuditReadStats> {
	const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
	let pending: Buffer[] = [];
	let pendingBytes = 0;
	let oversized = false;

	const finishLine = (line: Buffer): void => {
		// CRLF lines parse as they are (`\r` is JSON whitespace); a blank CRLF line is blank, not corrupt.
		if (line.length === 0 || (line.length === 1 && line[0] === 13)) return;
		const entry = parseAuditLine(line.toString("utf8"));
		if (entry === null) stats.corrupt++;
		else {
			stats.entries++;
			onEntry(entry);
		}
	};

	for await (const chunk of stream as AsyncIterable<Buffer>) {
		let start = 0;
		for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
			const piece = chunk.subarray(start, i);
			if (oversized) stats.corrupt++;
			else if (pendingBytes + piece.length > MAX_LINE_BYTES) stats.corrupt++;
			else finishLine(pendingBytes === 0 ? piece : Buffer.concat([...pending, piece]));
			pending = [];
			pendingBytes = 0;
			oversized = false;
			start = i + 1;
		}
		const rest = chunk.subarray(start);
		if (rest.length === 0 || oversized) continue;
		if (pendingBytes + rest.length > MAX_LINE_BYTES) {
			oversized = true;
			pending = [];
			pendingBytes = 0;
		} else {
			pending.push(Buffer.from(rest));
			pendingBytes += rest.length;
		}
	}
	if (oversized) stats.corrupt++;
	else if (pendingBytes > 0) finishLine(Buffer.concat(pending));
	return stats;
}
