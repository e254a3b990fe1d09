import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { processWide } from "../process-wide.ts";
import type { AuditEntry } from "./audit-entry.ts";

export interface AuditWriterOptions {
	readonly file: string;
	/** Rotate when the file grows past this size. */
	readonly maxBytes?: number;
	/** Rotated generations kept (`audit.1.jsonl` … `audit.N.jsonl`). */
	readonly keep?: number;
	/** Entries held in memory before `record` writes them at once instead of on the next tick (never loss). */
	readonly maxQueue?: number;
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_KEEP = 3;
const DEFAULT_MAX_QUEUE = 1000;

/**
 * Append-only JSONL writer. `record` does no file I/O on the caller's path unless the queue is full: entries are
 * queued and written in one append per batch on the next tick. Every process appends with O_APPEND, and one
 * batch is one write, so lines from concurrent sessions do not interleave within a line.
 *
 * The batch is written synchronously (adr/0028): an append without fsync is a few system calls that take
 * microseconds, while the asynchronous version sent a stat, an open, a write and a close through the thread
 * pool, each with its promise, after every decision: more CPU than the decision's own file-system calls.
 */
export class AuditWriter {
	readonly file: string;
	private readonly maxBytes: number;
	private readonly keep: number;
	private readonly maxQueue: number;
	private queue: string[] = [];
	private scheduled = false;
	private lastError: Error | null = null;

	constructor(options: AuditWriterOptions) {
		this.file = options.file;
		this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
		this.keep = options.keep ?? DEFAULT_KEEP;
		this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
		flushOnExit(this);
	}

	/** Queue one entry. Resolves at once; a full queue is written before it resolves (never loss). */
	record(entry: AuditEntry): Promise<void> {
		this.queue.push(`${JSON.stringify(entry)}\n`);
		if (this.queue.length >= this.maxQueue) return this.flush();
		this.schedule();
		return Promise.resolve();
	}

	/** The last write failure, if any (surfaced in status; the gate keeps deciding either way). */
	get error(): Error | null {
		return this.lastError;
	}

	/** Writes what is queued (appended, not fsynced) before it returns; a failure is in `error`. */
	flush(): Promise<void> {
		this.flushSync();
		return Promise.resolve();
	}

	/** Writes what is queued now: for process exit, when no more ticks will run, and for every batch. */
	flushSync(): void {
		if (this.queue.length === 0) return;
		const batch = this.queue.join("");
		this.queue = [];
		try {
			this.rotateIfNeeded();
			this.append(batch);
			this.lastError = null;
		} catch (error) {
			this.lastError = toError(error);
		}
	}

	private schedule(): void {
		if (this.scheduled) return;
		this.scheduled = true;
		setImmediate(() => {
			this.scheduled = false;
			this.flushSync();
		});
	}

	/**
	 * The directory is made only when the append finds it missing: a recursive mkdir walks the whole path, and a
	 * batch is written after every decision (adr/0028).
	 */
	private append(batch: string): void {
		try {
			appendFileSync(this.file, batch, { mode: 0o600 });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
			appendFileSync(this.file, batch, { mode: 0o600 });
		}
	}

	private rotateIfNeeded(): void {
		let size = 0;
		try {
			size = statSync(this.file).size;
		} catch {
			return; // Nothing to rotate; the append reports what is wrong with the path.
		}
		if (size < this.maxBytes) return;
		for (let i = this.keep - 1; i >= 1; i--) tryRenameSync(this.generation(i), this.generation(i + 1));
		tryRenameSync(this.file, this.generation(1));
	}

	private generation(n: number): string {
		return `${this.file.replace(/\.jsonl$/, "")}.${n}.jsonl`;
	}
}

/**
 * Entries still queued when the process exits are written synchronously. One `exit` listener per process,
 * shared by every writer (weakly held, so a finished session's writer can be collected).
 */
function flushOnExit(writer: AuditWriter): void {
	const writers = processWide("audit-exit-flush.v1", () => {
		const created = new Set<WeakRef<AuditWriter>>();
		process.once("exit", () => {
			for (const ref of created) ref.deref()?.flushSync();
		});
		return created;
	});
	writers.add(new WeakRef(writer));
}

function tryRenameSync(from: string, to: string): void {
	try {
		renameSync(from, to);
	} catch {
		// A missing generation is normal; another process may have rotated first.
	}
}

function toError(error: unknown): Error {
	return error instanceof Error ? error : new Error(String(error));
}
