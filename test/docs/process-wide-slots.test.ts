/**
 * adr/0001 lists every process-wide slot: a value shared by all copies of the extension in a process is state
 * a reader cannot see from one file, so each one is named there with what it holds and why. The names are read
 * from the source, so a new slot fails here until it is listed, and a listed one that is gone fails too.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../harness/paths.ts";

const SRC = path.join(REPO_ROOT, "src");
/** The one place that turns a name into a `Symbol.for` slot. */
const MECHANISM = path.join(SRC, "process-wide.ts");

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith(".ts") ? [full] : [];
	});
}

/** Every call of processWide/processWideListeners (type arguments and all) and what its name argument is. */
const CALL = /\bprocessWide(?:Listeners)?(?:<.*?>)?\(\s*(?:"([^"]*)"|'([^']*)'|(\S))/g;
/** A `Symbol.for(`, whatever follows it. */
const SYMBOL_FOR = /\bSymbol\.for\(/;

interface SlotUse {
	readonly file: string;
	/** The literal name; null when the name is not a string literal (it could not be listed). */
	readonly name: string | null;
}

function slotUses(): SlotUse[] {
	return sourceFiles(SRC)
		.filter((file) => file !== MECHANISM)
		.flatMap((file) =>
			[...readFileSync(file, "utf8").matchAll(CALL)].map((match) => ({
				file: path.relative(REPO_ROOT, file),
				name: match[1] ?? match[2] ?? null,
			})),
		);
}

/** The names in the first column of adr/0001's "Process-wide slots" table. */
function listedSlots(): string[] {
	const adr = readFileSync(path.join(REPO_ROOT, "adr", "0001-architecture.md"), "utf8");
	const section = adr.split(/^## Process-wide slots$/m)[1]?.split(/^## /m)[0] ?? "";
	return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1] ?? "");
}

describe("the process-wide slots (adr/0001)", () => {
	const uses = slotUses();
	const listed = listedSlots();

	it("are found in the source at all (the scan still sees the calls)", () => {
		expect(uses.length).toBeGreaterThanOrEqual(10);
		expect(listed.length).toBeGreaterThanOrEqual(10);
	});

	it("are each named by a string literal, so the name can be listed", () => {
		expect(uses.filter((use) => use.name === null).map((use) => use.file)).toEqual([]);
	});

	it("are made only through src/process-wide.ts: no other `Symbol.for` in src/", () => {
		const elsewhere = sourceFiles(SRC)
			.filter((file) => file !== MECHANISM)
			.filter((file) => SYMBOL_FOR.test(readFileSync(file, "utf8")))
			.map((file) => path.relative(REPO_ROOT, file));
		expect(elsewhere).toEqual([]);
		expect(readFileSync(MECHANISM, "utf8").split(SYMBOL_FOR)).toHaveLength(2);
	});

	it("are each listed in adr/0001, once, and nothing gone is listed", () => {
		const inSource = [...new Set(uses.flatMap((use) => (use.name === null ? [] : [use.name])))].sort();
		expect(new Set(listed).size, "a name listed twice").toBe(listed.length);
		expect([...listed].sort()).toEqual(inSource);
	});
});
