import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AuditEntry, readAuditLog } from "../../src/audit/audit-entry.ts";
import { auditEntry, tempDir } from "./audit-fixture.ts";

const CHUNK = 64 * 1024;
const MAX_LINE = 1024 * 1024;

const lineOf = (entry: AuditEntry): string => `${JSON.stringify(entry)}\n`;

async function readAll(file: string): Promise<{ previews: string[]; entries: number; corrupt: number }> {
	const previews: string[] = [];
	const stats = await readAuditLog(file, (entry) => previews.push(entry.preview));
	return { previews, ...stats };
}

function writeLog(content: string | Buffer): string {
	const file = join(tempDir(), "audit.jsonl");
	writeFileSync(file, content);
	return file;
}

/** A valid line of exactly `bytes` UTF-8 bytes (newline included), its preview padded with ASCII. */
function lineOfBytes(bytes: number, tag: string): string {
	const base = lineOf(auditEntry({ preview: tag }));
	const pad = bytes - Buffer.byteLength(base);
	if (pad < 0) throw new Error(`a line cannot be shorter than ${Buffer.byteLength(base)} bytes`);
	return lineOf(auditEntry({ preview: `${tag}${"-".repeat(pad)}` }));
}

/** Valid lines adding up to exactly `bytes` (each at most ~8 KiB, so the preview stays within its cap). */
function fillerLines(bytes: number): string[] {
	const out: string[] = [];
	let left = bytes;
	let n = 0;
	while (left > 0) {
		const size = left > 9000 ? 8000 : left;
		out.push(lineOfBytes(size, `filler-${n++}`));
		left -= size;
	}
	return out;
}

describe("readAuditLog: good and bad lines", () => {
	it("reads every valid entry in order and counts them", async () => {
		const tags = ["a", "b", "c"];
		const file = writeLog(tags.map((tag) => lineOf(auditEntry({ preview: tag }))).join(""));
		expect(await readAll(file)).toEqual({ previews: tags, entries: 3, corrupt: 0 });
	});

	it("reads an empty file as nothing", async () => {
		expect(await readAll(writeLog(""))).toEqual({ previews: [], entries: 0, corrupt: 0 });
	});

	it("skips and counts garbage, wrong-schema and bad-source lines; blank lines are not counted", async () => {
		const file = writeLog(
			[
				lineOf(auditEntry({ preview: "first" })),
				"not json at all\n",
				"\n",
				'{"v":1}\n',
				`${JSON.stringify({ ...auditEntry(), source: { kind: "user" } })}\n`,
				"\n\n",
				lineOf(auditEntry({ preview: "last" })),
			].join(""),
		);
		expect(await readAll(file)).toEqual({ previews: ["first", "last"], entries: 2, corrupt: 3 });
	});

	it("counts a torn last line (a writer killed mid-append) and keeps everything before it", async () => {
		const whole = lineOf(auditEntry({ preview: "whole" }));
		const torn = lineOf(auditEntry({ preview: "torn" })).slice(0, 100);
		expect(await readAll(writeLog(whole + torn))).toEqual({ previews: ["whole"], entries: 1, corrupt: 1 });
	});

	it("reads a last line without a newline when it is complete", async () => {
		const text = lineOf(auditEntry({ preview: "a" })) + lineOf(auditEntry({ preview: "b" })).trimEnd();
		expect(await readAll(writeLog(text))).toEqual({ previews: ["a", "b"], entries: 2, corrupt: 0 });
	});

	it("accepts CRLF line ends, and a blank CRLF line is blank, not corrupt", async () => {
		const crlf = (entry: AuditEntry): string => `${JSON.stringify(entry)}\r\n`;
		const file = writeLog(
			`${crlf(auditEntry({ preview: "one" }))}\r\n${crlf(auditEntry({ preview: "two" }))}`,
		);
		expect(await readAll(file)).toEqual({ previews: ["one", "two"], entries: 2, corrupt: 0 });
	});

	it("adds to the stats it is given, so several generations can be read into one count", async () => {
		const stats = { entries: 0, corrupt: 0 };
		await readAuditLog(writeLog(`${lineOf(auditEntry())}junk\n`), () => undefined, stats);
		await readAuditLog(writeLog(lineOf(auditEntry())), () => undefined, stats);
		expect(stats).toEqual({ entries: 2, corrupt: 1 });
	});

	it("rejects for a missing file (the caller decides what a missing log means)", async () => {
		await expect(readAuditLog(join(tempDir(), "absent.jsonl"), () => undefined)).rejects.toMatchObject({
			code: "ENOENT",
		});
	});
});

describe("readAuditLog: 64 KiB chunk boundaries", () => {
	it.each([CHUNK - 2, CHUNK - 1, CHUNK, CHUNK + 1, CHUNK + 2])(
		"reads lines when a newline ends %i bytes in",
		async (bytesBefore) => {
			const before = fillerLines(bytesBefore);
			const after = lineOf(auditEntry({ preview: "after" }));
			const file = writeLog(before.join("") + after);
			const read = await readAll(file);
			expect(read.corrupt).toBe(0);
			expect(read.entries).toBe(before.length + 1);
			expect(read.previews.at(-1)).toBe("after");
		},
	);

	it.each([1, 2, 3])(
		"reads a 4-byte character split %i byte(s) before the boundary without mangling it",
		async (split) => {
			const target = lineOf(auditEntry({ preview: "TARGET😀é計end" }));
			const emojiAt = Buffer.from(target).indexOf(Buffer.from("😀"));
			// Filler so that the emoji starts `split` bytes before the end of the first chunk.
			const before = fillerLines(CHUNK - split - emojiAt);
			const file = writeLog(before.join("") + target);
			const read = await readAll(file);
			expect(read.corrupt).toBe(0);
			expect(read.previews.at(-1)).toBe("TARGET😀é計end");
		},
	);

	it("reads a megabyte of mixed-script lines of random lengths exactly (every boundary lands somewhere new)", async () => {
		let seed = 7;
		const random = (n: number): number => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed % n;
		};
		const alphabet = ["a", "é", "計", "😀", " ", "\\", '"', "\n", "\t"];
		const expected: string[] = [];
		let text = "";
		while (Buffer.byteLength(text) < 1024 * 1024) {
			let preview = `${expected.length}:`;
			const length = random(6000);
			for (let i = 0; i < length; i++) preview += alphabet[random(alphabet.length)];
			expected.push(preview);
			text += lineOf(auditEntry({ preview }));
		}
		const read = await readAll(writeLog(text));
		expect(read.corrupt).toBe(0);
		expect(read.previews).toEqual(expected);
	});
});

describe("readAuditLog: oversized lines", () => {
	it("skips a line over 1 MiB as one corrupt line and reads on", async () => {
		const huge = `${"x".repeat(MAX_LINE * 2 + 123)}\n`;
		const file = writeLog(
			lineOf(auditEntry({ preview: "before" })) + huge + lineOf(auditEntry({ preview: "after" })),
		);
		expect(await readAll(file)).toEqual({ previews: ["before", "after"], entries: 2, corrupt: 1 });
	});

	it("counts a line just over the cap whose newline arrives in the chunk that overflows it", async () => {
		const over = `${"y".repeat(MAX_LINE + 10)}\n`;
		const file = writeLog(over + lineOf(auditEntry({ preview: "after" })));
		expect(await readAll(file)).toEqual({ previews: ["after"], entries: 1, corrupt: 1 });
	});

	it("counts an oversized last line with no newline", async () => {
		const file = writeLog(lineOf(auditEntry({ preview: "only" })) + "z".repeat(MAX_LINE * 3));
		expect(await readAll(file)).toEqual({ previews: ["only"], entries: 1, corrupt: 1 });
	});

	it("counts consecutive oversized lines separately", async () => {
		const file = writeLog(
			`${"a".repeat(MAX_LINE + 1)}\n${"b".repeat(MAX_LINE + 1)}\n${lineOf(auditEntry())}`,
		);
		expect(await readAll(file)).toMatchObject({ entries: 1, corrupt: 2 });
	});
});

describe("readAuditLog: memory stays bounded on large files", () => {
	const HUNDRED_MB = 100 * 1024 * 1024;
	const ALLOWED_GROWTH = 64 * 1024 * 1024;

	/** Runs `read` while sampling RSS and heap; returns the peak growth over the starting values. */
	async function peakGrowth(
		read: (sample: () => void) => Promise<void>,
	): Promise<{ rss: number; heap: number }> {
		const start = process.memoryUsage();
		let rss = 0;
		let heap = 0;
		const sample = (): void => {
			const now = process.memoryUsage();
			rss = Math.max(rss, now.rss - start.rss);
			heap = Math.max(heap, now.heapUsed - start.heapUsed);
		};
		const timer = setInterval(sample, 5);
		try {
			await read(sample);
		} finally {
			clearInterval(timer);
			sample();
		}
		return { rss, heap };
	}

	function writeLarge(file: string, bytes: number, lineFor: (i: number) => string): number {
		const fd = openSync(file, "w");
		let written = 0;
		let lines = 0;
		try {
			let block = "";
			while (written < bytes) {
				const line = lineFor(lines++);
				block += line;
				written += Buffer.byteLength(line);
				if (block.length > 1024 * 1024) {
					writeSync(fd, block);
					block = "";
				}
			}
			writeSync(fd, block);
		} finally {
			closeSync(fd);
		}
		return lines;
	}

	it("streams a 100 MB log of valid, corrupt and torn lines with < 64 MB memory growth", async () => {
		const file = join(tempDir(), "audit.jsonl");
		let corruptWritten = 0;
		const lines = writeLarge(file, HUNDRED_MB, (i) => {
			if (i % 1000 === 999) {
				corruptWritten++;
				return `${lineOf(auditEntry({ preview: `cmd ${i}` })).slice(0, 200)}\n`;
			}
			return lineOf(auditEntry({ preview: `cmd ${i} ${"é".repeat(i % 300)}`, latencyMs: i }));
		});
		let seen = 0;
		let lastLatency = -1;
		let ordered = true;
		const started = performance.now();
		const growth = await peakGrowth(async (sample) => {
			const stats = await readAuditLog(file, (entry) => {
				ordered &&= entry.latencyMs > lastLatency;
				lastLatency = entry.latencyMs;
				if (++seen % 10_000 === 0) sample();
			});
			expect(stats).toEqual({ entries: lines - corruptWritten, corrupt: corruptWritten });
		});
		const seconds = (performance.now() - started) / 1000;
		console.info(
			`100 MB audit read: ${lines} lines in ${seconds.toFixed(1)} s; peak growth RSS ${(growth.rss / 2 ** 20).toFixed(1)} MiB, heap ${(growth.heap / 2 ** 20).toFixed(1)} MiB`,
		);
		expect(ordered).toBe(true);
		expect(seen).toBe(lines - corruptWritten);
		expect(growth.rss).toBeLessThan(ALLOWED_GROWTH);
		expect(growth.heap).toBeLessThan(ALLOWED_GROWTH);
	}, 120_000);

	it("streams a hostile 100 MB file that is one line, without buffering it", async () => {
		const file = join(tempDir(), "audit.jsonl");
		const block = "q".repeat(1024 * 1024);
		writeLarge(file, HUNDRED_MB, () => block);
		const growth = await peakGrowth(async () => {
			expect(await readAuditLog(file, () => undefined)).toEqual({ entries: 0, corrupt: 1 });
		});
		console.info(
			`100 MB single-line read: peak growth RSS ${(growth.rss / 2 ** 20).toFixed(1)} MiB, heap ${(growth.heap / 2 ** 20).toFixed(1)} MiB`,
		);
		expect(growth.rss).toBeLessThan(ALLOWED_GROWTH);
		expect(growth.heap).toBeLessThan(ALLOWED_GROWTH);
	}, 120_000);
});
