import { appendLines } from "../audit/log-file.ts";

/**
 * The hub's own diagnostics (rejected inbox files, watcher fallbacks, liveness give-ups) as JSONL next to the
 * audit log. Decisions go to the audit log; this is for what never became a decision. Best effort, never blocks:
 * each line is one synchronous append that refuses a FIFO, a link or a device at the log's name (adr/0005) — the
 * asynchronous append it replaced opened a FIFO in the thread pool, where it waited forever and held pi's exit.
 */
export class HubLog {
	readonly file: string;

	constructor(file: string) {
		this.file = file;
	}

	write(event: string, details: Readonly<Record<string, unknown>>): void {
		const line = `${JSON.stringify({ time: new Date().toISOString(), pid: process.pid, event, ...details })}\n`;
		try {
			appendLines(this.file, line);
		} catch {
			// Diagnostics only: a log that cannot be written must not change what the hub does.
		}
	}
}
