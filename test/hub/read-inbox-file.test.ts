import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readInboxFile } from "../../src/hub/private-files.ts";
import { tempAgentDir } from "./hub-fixture.ts";

describe("readInboxFile", () => {
	it("reads a regular file whole", () => {
		const file = join(tempAgentDir(), "a.json");
		const text = `{"x":"${"é".repeat(3000)}"}`;
		writeFileSync(file, text);
		expect(readInboxFile(file, 1 << 20)).toEqual({ ok: true, text });
	});

	it("reports a missing file as missing", () => {
		const read = readInboxFile(join(tempAgentDir(), "none.json"), 100);
		expect(read).toMatchObject({ ok: false, missing: true });
	});

	it("refuses a symlink without following it, even to a readable file", () => {
		const dir = tempAgentDir();
		writeFileSync(join(dir, "target.json"), "{}");
		symlinkSync(join(dir, "target.json"), join(dir, "link.json"));
		symlinkSync("/dev/zero", join(dir, "zero.json"));
		symlinkSync(join(dir, "nowhere"), join(dir, "dangling.json"));
		for (const name of ["link.json", "zero.json", "dangling.json"]) {
			const read = readInboxFile(join(dir, name), 100);
			expect(read, name).toMatchObject({ ok: false, missing: false, reason: "the file is a symbolic link" });
		}
	});

	// A FIFO nobody writes to would block a plain open for good; how long the refusal takes is bench figure 9.
	it("refuses a FIFO without blocking, and a directory", () => {
		const dir = tempAgentDir();
		execFileSync("mkfifo", [join(dir, "fifo.json")]);
		mkdirSync(join(dir, "dir.json"));
		expect(readInboxFile(join(dir, "fifo.json"), 100)).toMatchObject({
			ok: false,
			reason: "not a regular file",
		});
		expect(readInboxFile(join(dir, "dir.json"), 100)).toMatchObject({
			ok: false,
			reason: "not a regular file",
		});
	});

	it("refuses an oversized file unread, and accepts one exactly at the cap", () => {
		const dir = tempAgentDir();
		writeFileSync(join(dir, "big.json"), Buffer.alloc(10_001, 0x61));
		writeFileSync(join(dir, "cap.json"), Buffer.alloc(10_000, 0x61));
		expect(readInboxFile(join(dir, "big.json"), 10_000)).toMatchObject({
			ok: false,
			missing: false,
			reason: "the file is 10001 bytes, more than the 10000 allowed",
		});
		const cap = readInboxFile(join(dir, "cap.json"), 10_000);
		expect(cap.ok && cap.text.length).toBe(10_000);
	});

	it("never throws: odd paths come back as refusals", () => {
		const dir = tempAgentDir();
		writeFileSync(join(dir, "file"), "x");
		for (const path of [join(dir, "file", "below"), "", "\u0000bad", join(dir, "x".repeat(5000))]) {
			expect(() => readInboxFile(path, 100)).not.toThrow();
			expect(readInboxFile(path, 100).ok).toBe(false);
		}
	});
});
