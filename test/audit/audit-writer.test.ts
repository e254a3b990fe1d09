import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { parseAuditLine } from "../../src/audit/audit-entry.ts";
import { AuditWriter } from "../../src/audit/audit-writer.ts";
import { auditEntry, tempDir } from "./audit-fixture.ts";

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, "audit-writer-child.ts");

function lines(file: string): string[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l !== "");
}

function previews(file: string): string[] {
	return lines(file).map((l) => parseAuditLine(l)?.preview ?? "<corrupt>");
}

const mode = (path: string): number => statSync(path).mode & 0o777;

describe("AuditWriter: queued appends", () => {
	it("does no file I/O on the caller's path: the entry lands on a later tick", async () => {
		const file = join(tempDir(), "audit.jsonl");
		const writer = new AuditWriter({ file });
		await writer.record(auditEntry({ preview: "one" }));
		expect(existsSync(file)).toBe(false);
		await vi.waitFor(() => expect(previews(file)).toEqual(["one"]));
		expect(writer.error).toBeNull();
	});

	it("writes everything recorded in one tick as one batch, in order", async () => {
		const file = join(tempDir(), "audit.jsonl");
		const writer = new AuditWriter({ file });
		const expected = Array.from({ length: 200 }, (_, i) => `entry-${i}`);
		for (const preview of expected) void writer.record(auditEntry({ preview }));
		await writer.flush();
		expect(previews(file)).toEqual(expected);
		// A later batch appends after it.
		void writer.record(auditEntry({ preview: "later" }));
		await writer.flush();
		expect(previews(file)).toEqual([...expected, "later"]);
	});

	it("every line it writes parses back to the entry recorded", async () => {
		const file = join(tempDir(), "audit.jsonl");
		const writer = new AuditWriter({ file });
		const entry = auditEntry({ ceiling: { tier: "spend", reason: "budgeted" }, requestId: "req-9" });
		await writer.record(entry);
		await writer.flush();
		expect(lines(file).map(parseAuditLine)).toEqual([entry]);
	});

	it("makes the caller wait (backpressure) only when the queue is full, and loses nothing", async () => {
		const file = join(tempDir(), "audit.jsonl");
		const writer = new AuditWriter({ file, maxQueue: 5 });
		for (let i = 0; i < 4; i++) await writer.record(auditEntry({ preview: `e${i}` }));
		// Four queued entries resolved at once: nothing is on disk yet.
		expect(existsSync(file)).toBe(false);
		await writer.record(auditEntry({ preview: "e4" }));
		// The fifth waited for the flush of all five.
		expect(previews(file)).toEqual(["e0", "e1", "e2", "e3", "e4"]);
	});

	it("under sustained load, each full-queue record waits for its own entries to be on disk", async () => {
		const file = join(tempDir(), "audit.jsonl");
		const writer = new AuditWriter({ file, maxQueue: 10 });
		const all: string[] = [];
		for (let i = 0; i < 95; i++) {
			const preview = `load-${i}`;
			all.push(preview);
			const recorded = writer.record(auditEntry({ preview }));
			if ((i + 1) % 10 === 0) {
				await recorded;
				expect(previews(file)).toEqual(all);
			}
		}
		await writer.flush();
		expect(previews(file)).toEqual(all);
	});

	it("concurrent flush calls write each entry exactly once", async () => {
		const file = join(tempDir(), "audit.jsonl");
		const writer = new AuditWriter({ file });
		const flushes: Promise<void>[] = [];
		for (let i = 0; i < 30; i++) {
			void writer.record(auditEntry({ preview: `c${i}` }));
			flushes.push(writer.flush());
		}
		await Promise.all(flushes);
		await writer.flush();
		expect(previews(file)).toEqual(Array.from({ length: 30 }, (_, i) => `c${i}`));
	});
});

describe("AuditWriter: files, modes and rotation", () => {
	it("creates missing directories 0700 and the file 0600", async () => {
		const root = tempDir();
		const file = join(root, "a", "b", "c", "audit.jsonl");
		const writer = new AuditWriter({ file });
		await writer.record(auditEntry());
		await writer.flush();
		for (const dir of ["a", "a/b", "a/b/c"]) expect(mode(join(root, dir))).toBe(0o700);
		expect(mode(file)).toBe(0o600);
	});

	it("makes the directory again when it is removed between batches, and loses no entry", async () => {
		const root = tempDir();
		const file = join(root, "logs", "audit.jsonl");
		const writer = new AuditWriter({ file });
		await writer.record(auditEntry({ preview: "before" }));
		await writer.flush();
		rmSync(join(root, "logs"), { recursive: true });
		await writer.record(auditEntry({ preview: "after" }));
		await writer.flush();
		expect(previews(file)).toEqual(["after"]);
		expect(mode(join(root, "logs"))).toBe(0o700);
		expect(writer.error).toBeNull();
	});

	it("rotates at maxBytes, keeping N generations, oldest dropped, order kept across files", async () => {
		const dir = tempDir();
		const file = join(dir, "audit.jsonl");
		const one = `${JSON.stringify(auditEntry({ preview: "x000" }))}\n`;
		const maxBytes = one.length * 3;
		const writer = new AuditWriter({ file, maxBytes, keep: 2 });
		for (let i = 0; i < 20; i++) {
			void writer.record(auditEntry({ preview: `x${String(i).padStart(3, "0")}` }));
			await writer.flush();
		}
		expect(existsSync(join(dir, "audit.1.jsonl"))).toBe(true);
		expect(existsSync(join(dir, "audit.2.jsonl"))).toBe(true);
		expect(existsSync(join(dir, "audit.3.jsonl"))).toBe(false);
		// The size is checked before each append: a file never holds more than maxBytes plus one batch.
		for (const name of ["audit.jsonl", "audit.1.jsonl", "audit.2.jsonl"]) {
			expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(maxBytes + one.length);
		}
		const kept = [
			...previews(join(dir, "audit.2.jsonl")),
			...previews(join(dir, "audit.1.jsonl")),
			...previews(file),
		];
		expect(kept).toEqual(
			Array.from({ length: 20 }, (_, i) => `x${String(i).padStart(3, "0")}`).slice(-kept.length),
		);
		// Three lines reach maxBytes, so each rotated file holds three; 20 = 6 × 3 + 2 in the current file.
		expect(previews(file)).toHaveLength(2);
		expect(kept).toHaveLength(8);
		expect(mode(file)).toBe(0o600);
	});

	it("keeps a single generation with keep: 1", async () => {
		const dir = tempDir();
		const file = join(dir, "audit.jsonl");
		const writer = new AuditWriter({ file, maxBytes: 1, keep: 1 });
		for (const preview of ["a", "b", "c"]) {
			void writer.record(auditEntry({ preview }));
			await writer.flush();
		}
		expect(previews(join(dir, "audit.1.jsonl"))).toEqual(["b"]);
		expect(previews(file)).toEqual(["c"]);
		expect(existsSync(join(dir, "audit.2.jsonl"))).toBe(false);
	});

	it("names generations after a file that does not end in .jsonl by appending", async () => {
		const dir = tempDir();
		const file = join(dir, "decisions.log");
		const writer = new AuditWriter({ file, maxBytes: 1, keep: 3 });
		for (const preview of ["a", "b"]) {
			void writer.record(auditEntry({ preview }));
			await writer.flush();
		}
		expect(previews(join(dir, "decisions.log.1.jsonl"))).toEqual(["a"]);
	});
});

describe("AuditWriter: failures are surfaced, never thrown", () => {
	it("sets .error when the directory cannot be created, and clears it after a later success", async () => {
		const dir = tempDir();
		const blocker = join(dir, "logs");
		writeFileSync(blocker, "a file where the directory should be");
		const writer = new AuditWriter({ file: join(blocker, "audit.jsonl") });
		await expect(writer.record(auditEntry())).resolves.toBeUndefined();
		await expect(writer.flush()).resolves.toBeUndefined();
		expect(writer.error).toBeInstanceOf(Error);
		expect(writer.error?.message).toContain(join(blocker, "audit.jsonl"));
		expect(writer.error?.message).toMatch(/ENOTDIR|EEXIST/);

		rmSync(blocker);
		void writer.record(auditEntry({ preview: "after the fix" }));
		await writer.flush();
		expect(writer.error).toBeNull();
		// The failed batch stayed queued: nothing recorded while the disk was broken is lost.
		expect(previews(join(blocker, "audit.jsonl"))).toEqual(["rm -rf build", "after the fix"]);
	});

	it("sets .error when the file itself is a directory", async () => {
		const dir = tempDir();
		const file = join(dir, "audit.jsonl");
		mkdirSync(file);
		const writer = new AuditWriter({ file });
		await writer.record(auditEntry());
		await writer.flush();
		expect(writer.error?.message).toBe(`${file} cannot be written: it is a directory, not a regular file`);
	});

	it("flushSync writes the queue at once, and reports a failure the same way", () => {
		const dir = tempDir();
		const file = join(dir, "sync", "audit.jsonl");
		const writer = new AuditWriter({ file });
		void writer.record(auditEntry({ preview: "s1" }));
		void writer.record(auditEntry({ preview: "s2" }));
		writer.flushSync();
		expect(previews(file)).toEqual(["s1", "s2"]);
		expect(mode(file)).toBe(0o600);
		expect(mode(join(dir, "sync"))).toBe(0o700);

		const blocker = join(dir, "blocker");
		writeFileSync(blocker, "");
		const failing = new AuditWriter({ file: join(blocker, "audit.jsonl") });
		void failing.record(auditEntry());
		expect(() => failing.flushSync()).not.toThrow();
		expect(failing.error).toBeInstanceOf(Error);
	});

	it("flushSync rotates like the async path", () => {
		const dir = tempDir();
		const file = join(dir, "audit.jsonl");
		const writer = new AuditWriter({ file, maxBytes: 1, keep: 2 });
		for (const preview of ["a", "b", "c", "d"]) {
			void writer.record(auditEntry({ preview }));
			writer.flushSync();
		}
		expect(previews(join(dir, "audit.2.jsonl"))).toEqual(["b"]);
		expect(previews(join(dir, "audit.1.jsonl"))).toEqual(["c"]);
		expect(previews(file)).toEqual(["d"]);
	});
});

describe("AuditWriter: real processes", () => {
	it("entries still queued when the process exits are written by the exit hook", async () => {
		const file = join(tempDir(), "exit", "audit.jsonl");
		await run(process.execPath, [CHILD, file, "exit", "25"]);
		expect(previews(file)).toEqual(Array.from({ length: 25 }, (_, i) => `exit-${i}`));
	});

	it("two processes appending to one file never interleave within a line or a batch", async () => {
		const file = join(tempDir(), "audit.jsonl");
		const rounds = 40;
		const batchSize = 50;
		await Promise.all([
			run(process.execPath, [CHILD, file, "batches", "A", String(rounds), String(batchSize)]),
			run(process.execPath, [CHILD, file, "batches", "B", String(rounds), String(batchSize)]),
		]);
		const keys = previews(file).map((preview) => preview.split(":").slice(0, 3).join(":"));
		expect(keys).not.toContain("<corrupt>");
		expect(keys).toHaveLength(2 * rounds * batchSize);
		// One batch is one append: its lines are contiguous and in order, whatever the other process did.
		for (let start = 0; start < keys.length; start += batchSize) {
			const batch = keys.slice(start, start + batchSize);
			const [writer, round] = (batch[0] ?? "").split(":");
			expect(batch).toEqual(Array.from({ length: batchSize }, (_, i) => `${writer}:${round}:${i}`));
		}
	});
});
