import { renameSync, statSync } from "node:fs";
import { processWide } from "../process-wide.ts";
import { tryLock, unlock } from "../vocabulary/lock-file.ts";
import type { AuditEntry } from "./audit-entry.ts";
import { AppendError, appendLines } from "./log-file.ts";

export interface AuditWriterOptions {
	readonly file: string;
	/** Rotate when the file grows past this size. */
	readonly maxBytes?: number;
	/** Rotated generations kept (`audit.1.jsonl` … `audit.N.jsonl`). */
	readonly keep?: number;
	/** Entries held in memory before `record` writes them at once instead of on the next tick (never loss). */
	readonly maxQueue?: number;
	/** Told when writing starts failing (the error) and when it works again (null). */
	readonly onFailure?: (error: AppendError | null) => void;
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_KEEP = 3;
const DEFAULT_MAX_QUEUE = 1000;
/** A rotation lock older than this was left by a writer that died while rotating. */
const STALE_ROTATION_LOCK_MS = 10_000;

/**
 * Append-only JSONL writer. `record` does no file I/O on the caller's path unless the queue is full: entries are
 * queued and written in one append per batch on the next tick. Every process appends with O_APPEND, and one
 * batch is one write, so lines from concurrent sessions do not interleave within a line.
 *
 * The batch is written synchronously (adr/0028): an append without fsync is a few system calls that take
 * microseconds, while the asynchronous version sent a stat, an open, a write and a close through the thread
 * pool, each with its promise, after every decision: more CPU than the decision's own file-system calls.
 *
 * An allowed call's line is written with `recordNow`, before the call may run: when it cannot be written the
 * call is blocked (adr/0005). Rotation takes a lock file, so that of many writers crossing the size at once one
 * rotates and the others append to the fresh file, instead of each shifting the generations again.
 */
export class AuditWriter {
	readonly file: string;
	private readonly maxBytes: number;
	private readonly keep: number;
	private readonly maxQueue: number;
	private readonly onFailure: (error: AppendError | null) => void;
	private queue: string[] = [];
	private scheduled = false;
	private lastError: AppendError | null = null;

	constructor(options: AuditWriterOptions) {
		this.file = options.file;
		this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
		this.keep = options.keep ?? DEFAULT_KEEP;
		this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
		this.onFailure = options.onFailure ?? (() => undefined);
		flushOnExit(this);
	}

	/** Queue one entry. Resolves at once; a full queue is written before it resolves (never loss). */
	record(entry: AuditEntry): Promise<void> {
		this.queue.push(`${JSON.stringify(entry)}\n`);
		if (this.queue.length >= this.maxQueue) return this.flush();
		this.schedule();
		return Promise.resolve();
	}

	/**
	 * Write this entry now, after everything queued before it: for a call that may run only once its line is on
	 * disk. Throws the `AppendError` when it is not: this entry is dropped (the call it allowed does not run, and
	 * its caller records that instead), the ones queued before it stay queued for the next write.
	 */
	recordNow(entry: AuditEntry): void {
		const line = `${JSON.stringify(entry)}\n`;
		this.queue.push(line);
		this.flushSync();
		if (this.lastError === null) return;
		const at = this.queue.lastIndexOf(line);
		if (at !== -1) this.queue.splice(at, 1);
		throw this.lastError;
	}

	/** The last write failure, if any; null once a write worked again. */
	get error(): AppendError | null {
		return this.lastError;
	}

	/** Writes what is queued (appended, not fsynced) before it returns; a failure is in `error`. */
	flush(): Promise<void> {
		this.flushSync();
		return Promise.resolve();
	}

	/**
	 * Writes what is queued now: for process exit, when no more ticks will run, and for every batch. A batch
	 * that could not be written stays queued (bounded by `maxQueue`, oldest dropped), so a fixed disk loses
	 * nothing recorded meanwhile.
	 */
	flushSync(): void {
		if (this.queue.length === 0) return;
		const batch = this.queue.join("");
		try {
			this.rotateIfNeeded();
			appendLines(this.file, batch);
			this.queue = [];
			this.failed(null);
		} catch (error) {
			if (this.queue.length > this.maxQueue) this.queue.splice(0, this.queue.length - this.maxQueue);
			this.failed(error instanceof AppendError ? error : new AppendError(this.file, String(error)));
		}
	}

	private failed(error: AppendError | null): void {
		const changed =
			(error === null) !== (this.lastError === null) || error?.message !== this.lastError?.message;
		this.lastError = error;
		if (changed) this.onFailure(error);
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
	 * One writer rotates: the one that creates the lock file, and only if the file is still over the size once
	 * it holds the lock (another may have rotated between its look and its lock). The others append to
	 * whichever file the name holds; a line written to the old one just before the rename is in generation 1.
	 */
	private rotateIfNeeded(): void {
		if (sizeOf(this.file) < this.maxBytes) return;
		const lock = `${this.file}.rotating`;
		if (!tryLock(lock, STALE_ROTATION_LOCK_MS)) return;
		try {
			if (sizeOf(this.file) < this.maxBytes) return;
			for (let i = this.keep - 1; i >= 1; i--) tryRenameSync(this.generation(i), this.generation(i + 1));
			tryRenameSync(this.file, this.generation(1));
		} finally {
			unlock(lock);
		}
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

/** The file's size; 0 when it is missing or unreadable (the append reports what is wrong with the path). */
function sizeOf(file: string): number {
	try {
		return statSync(file).size;
	} catch {
		return 0;
	}
}

function tryRenameSync(from: string, to: string): void {
	try {
		renameSync(from, to);
	} catch {
		// A missing generation is normal.
	}
}
