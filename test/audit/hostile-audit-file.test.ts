/**
 * The audit log is in a directory other processes of the same user reach: whatever is put at its name, the
 * writer neither blocks nor writes anywhere but a regular file of that name, says what is wrong, and loses only
 * what it could not write (adr/0005). Real files, real FIFOs and links, a real full tmpfs, real processes.
 */
import { execFile, execFileSync } from "node:child_process";
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAuditLine } from "../../src/audit/audit-entry.ts";
import { AuditWriter } from "../../src/audit/audit-writer.ts";
import { auditEntry, tempDir } from "./audit-fixture.ts";

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, "audit-writer-child.ts");

function parsedLines(file: string): { entries: string[]; corrupt: number } {
	const entries: string[] = [];
	let corrupt = 0;
	for (const line of readFileSync(file, "utf8").split("\n")) {
		if (line === "") continue;
		const entry = parseAuditLine(line);
		if (entry === null) corrupt++;
		else entries.push(entry.preview);
	}
	return { entries, corrupt };
}

describe("AuditWriter: what is at the file's name is never trusted", () => {
	it("a FIFO is refused at once, in a child process that would otherwise block for good", async () => {
		const dir = tempDir();
		const file = join(dir, "audit.jsonl");
		execFileSync("mkfifo", [file]);
		const started = Date.now();
		await expect(
			run(process.execPath, [CHILD, file, "batches", "F", "1", "1"], { timeout: 10_000 }),
		).rejects.toMatchObject({ stderr: expect.stringContaining(`${file} cannot be written: it is a FIFO`) });
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	it("a symbolic link is not followed: its target is left as it was, and the error names the link", () => {
		const dir = tempDir();
		const target = join(dir, "bashrc");
		writeFileSync(target, "export PATH=/usr/bin\n");
		const file = join(dir, "audit.jsonl");
		symlinkSync(target, file);
		const writer = new AuditWriter({ file });
		expect(() => writer.recordNow(auditEntry())).toThrow(
			`${file} cannot be written: it is a symbolic link, not a regular file`,
		);
		expect(readFileSync(target, "utf8")).toBe("export PATH=/usr/bin\n");
	});

	it("a link to /dev/full is refused, not taken as a write that vanished", () => {
		const file = join(tempDir(), "audit.jsonl");
		symlinkSync("/dev/full", file);
		const writer = new AuditWriter({ file });
		expect(() => writer.recordNow(auditEntry())).toThrow(/symbolic link/);
		expect(writer.error?.file).toBe(file);
	});

	it("a line torn by a writer killed mid-append is closed first: the next batch's first line survives", () => {
		const file = join(tempDir(), "audit.jsonl");
		const whole = `${JSON.stringify(auditEntry({ preview: "before" }))}\n`;
		// What a kill at a 4 KiB boundary leaves: a whole line, then the start of the next one.
		writeFileSync(file, `${whole}${JSON.stringify(auditEntry({ preview: "torn" })).slice(0, 90)}`);
		const writer = new AuditWriter({ file });
		writer.recordNow(auditEntry({ preview: "after" }));
		expect(parsedLines(file)).toEqual({ entries: ["before", "after"], corrupt: 1 });
	});

	it("the failure is told once when it starts and once when it ends", () => {
		const dir = tempDir();
		const file = join(dir, "audit.jsonl");
		mkdirSync(file);
		const told: (string | null)[] = [];
		const writer = new AuditWriter({ file, onFailure: (error) => told.push(error?.message ?? null) });
		void writer.record(auditEntry({ preview: "queued" }));
		writer.flushSync();
		expect(() => writer.recordNow(auditEntry({ preview: "refused" }))).toThrow(/directory/);
		rmSync(file, { recursive: true });
		writer.recordNow(auditEntry({ preview: "after" }));
		expect(told).toEqual([`${file} cannot be written: it is a directory, not a regular file`, null]);
		// The queued line waited for the fix; the refused one is dropped (its call did not run).
		expect(parsedLines(file).entries).toEqual(["queued", "after"]);
	});
});

describe("AuditWriter: a full disk", () => {
	// .ci/run runs as root, as the developers do: a real 64 KiB tmpfs is the full disk.
	const mount = mkdtempSync(join(tmpdir(), "pph-full-disk-"));
	beforeAll(() => {
		execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount]);
	});
	afterAll(() => {
		execFileSync("umount", [mount]);
		rmSync(mount, { recursive: true });
	});

	it("refuses the line with ENOSPC, and writes what was queued once there is room again", () => {
		const file = join(mount, "audit.jsonl");
		const filler = join(mount, "filler");
		let room = true;
		while (room) {
			try {
				appendFileSync(filler, "x".repeat(4096));
			} catch {
				room = false;
			}
		}
		const writer = new AuditWriter({ file });
		void writer.record(auditEntry({ preview: "queued while full" }));
		writer.flushSync();
		expect(writer.error?.message).toBe(`${file} cannot be written: the disk is full (ENOSPC)`);
		expect(() => writer.recordNow(auditEntry({ preview: "allowed while full" }))).toThrow(
			`${file} cannot be written: the disk is full (ENOSPC)`,
		);
		rmSync(filler);
		writer.recordNow(auditEntry({ preview: "after" }));
		expect(parsedLines(file).entries).toEqual(["queued while full", "after"]);
	});
});

describe("AuditWriter: many writers across rotation", () => {
	it("16 processes crossing the size many times: one rotates at a time, no line is lost or torn", async () => {
		const dir = tempDir();
		const file = join(dir, "audit.jsonl");
		const [writers, rounds, batch] = [16, 10, 40];
		// 6,400 lines of ~700 bytes over 128 KiB files: many rotations, each crossed by several writers at once.
		await Promise.all(
			Array.from({ length: writers }, (_, w) =>
				run(process.execPath, [
					CHILD,
					file,
					"batches",
					`w${w}`,
					String(rounds),
					String(batch),
					"131072",
					"200",
				]),
			),
		);
		const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
		expect(files.length).toBeGreaterThan(5);
		let corrupt = 0;
		const seen = new Set<string>();
		for (const name of files) {
			const parsed = parsedLines(join(dir, name));
			corrupt += parsed.corrupt;
			for (const preview of parsed.entries) seen.add(preview.split(":").slice(0, 3).join(":"));
		}
		expect(corrupt).toBe(0);
		expect(seen.size).toBe(writers * rounds * batch);
		expect(existsSync(`${file}.rotating`)).toBe(false);
	}, 120_000);
});
