import { appendFile } from "node:fs/promises";

/**
 * The hub's own diagnostics (rejected inbox files, watcher fallbacks, liveness give-ups) as JSONL next to the
 * audit log. Decisions go to the audit log; this is for what never became a decision. Best effort, never blocks.
 */
export class HubLog {
	readonly file: string;
	/** Appends run one after another: concurrent appends to one file may land out of order. */
	private pending: Promise<void> = Promise.resolve();

	constructor(file: string) {
		this.file = file;
	}

	write(event: string, details: Readonly<Record<string, unknown>>): void {
		const line = `${JSON.stringify({ time: new Date().toISOString(), pid: process.pid, event, ...details })}\n`;
		this.pending = this.pending.then(() =>
			appendFile(this.file, line, { mode: 0o600 }).catch(() => undefined),
		);
	}

	/** Resolves once every line written so far is on disk (or was given up on). */
	flushed(): Promise<void> {
		return this.pending;
	}
}
