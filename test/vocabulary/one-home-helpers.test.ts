/**
 * The helpers several layers need have one home in src/vocabulary/ (adr/0001), and every use goes through it:
 * a copy drifts (one reads a code that is not a string, one forgets a case). This holds src/ to the spellings
 * the copies had, so one written again fails here.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fsErrorCode } from "../../src/vocabulary/fs-error-code.ts";
import { removeQuietly } from "../../src/vocabulary/remove-quietly.ts";
import { MAX_TIMER_MS } from "../../src/vocabulary/timer-limit.ts";
import { REPO_ROOT } from "../harness/paths.ts";

const SRC = path.join(REPO_ROOT, "src");

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith(".ts") ? [full] : [];
	});
}

/** Each helper's home, and how a copy of it was written outside that home. */
const HOMES = [
	{
		home: "src/vocabulary/fs-error-code.ts",
		copies: [/Reflect\.get\(\s*\w+\s*,\s*["']code["']\s*\)/, /ErrnoException/],
	},
	{ home: "src/vocabulary/remove-quietly.ts", copies: [/function removeQuietly\b/] },
	{ home: "src/vocabulary/timer-limit.ts", copies: [/2 \*\* 31\b/, /\b2147483647\b/, /0x7fffffff/i] },
];

describe("helpers with one home in src/vocabulary/", () => {
	const files = sourceFiles(SRC).map((file) => ({
		file: path.relative(REPO_ROOT, file),
		text: readFileSync(file, "utf8"),
	}));

	it.each(HOMES)("$home is the only place its helper is written", ({ home, copies }) => {
		expect(files.some(({ file }) => file === home)).toBe(true);
		const elsewhere = files
			.filter(({ file }) => file !== home)
			.filter(({ text }) => copies.some((copy) => copy.test(text)))
			.map(({ file }) => file);
		expect(elsewhere).toEqual([]);
	});

	it("fsErrorCode reads only a string code", () => {
		expect(fsErrorCode(Object.assign(new Error("x"), { code: "ENOENT" }))).toBe("ENOENT");
		expect(fsErrorCode({ code: 2 })).toBeUndefined();
		expect(fsErrorCode("ENOENT")).toBeUndefined();
		expect(fsErrorCode(null)).toBeUndefined();
	});

	it("removeQuietly removes a file, and says nothing when it is already gone", () => {
		const dir = mkdtempSync(path.join(tmpdir(), "pph-remove-"));
		try {
			const file = path.join(dir, "claim");
			writeFileSync(file, "x");
			removeQuietly(file);
			expect(existsSync(file)).toBe(false);
			expect(() => removeQuietly(file)).not.toThrow();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("MAX_TIMER_MS is the longest delay a Node timer keeps", () => {
		// One past it, Node warns and fires at once (TimeoutOverflowWarning).
		expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
	});
});
