import { appendFile } from "node:fs/promises";

/**
 * The hub's own diagnostics (rejected inbox files, watcher fallbacks, liveness give-ups) as JSONL next to the
 * audit log. Decisions go to the audit log; this is for what never became a decision. Best effort, never blocks.
 */
export class HubLog {
	readonly file: string;

	constructor(file: string) {
		this.file = file;
	}

	write(event: string, details: Readonly<Record<string, unknown>>): void {
		const line = `${JSON.stringify({ time: new Date().toISOString(), pid: process.pid, event, ...details })}\n`;
		appendFile(this.file, line, { mode: 0o600 }).catch(() => undefined);
	}
}
