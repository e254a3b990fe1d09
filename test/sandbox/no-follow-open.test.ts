/**
 * Opening the approved file and no other, with real files: every way a link or a swapped directory could turn
 * the path the gate classified into another file, made at the moment between the check and the open.
 */

import { execFileSync } from "node:child_process";
import {
	existsSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	renameSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContainmentError, openApprovedFile } from "../../src/sandbox/no-follow-open.ts";

let root: string;
let project: string;
/** Stands for `~/.bashrc`: no write may ever land here. */
let outside: string;

beforeEach(() => {
	root = realpathSync(mkdtempSync(path.join(tmpdir(), "no-follow-")));
	project = path.join(root, "project");
	mkdirSync(path.join(project, "src"), { recursive: true });
	mkdirSync(path.join(root, "home"));
	outside = path.join(root, "home", ".bashrc");
	writeFileSync(outside, "original bashrc\n");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

async function write(
	realPath: string,
	content: string,
	options: { create?: boolean; otherNamesApproved?: boolean } = {},
) {
	const file = await openApprovedFile({
		realPath,
		access: "write",
		create: options.create ?? true,
		...options,
	});
	try {
		await file.handle.truncate(0);
		await file.handle.writeFile(content);
		return file.realPath;
	} finally {
		await file.handle.close();
	}
}

describe("openApprovedFile", () => {
	it("writes an existing file and creates a new one with its directories", async () => {
		const existing = path.join(project, "big.txt");
		writeFileSync(existing, "old");
		expect(await write(existing, "new")).toBe(existing);
		expect(readFileSync(existing, "utf8")).toBe("new");
		const fresh = path.join(project, "a", "b", "c.txt");
		await write(fresh, "made");
		expect(readFileSync(fresh, "utf8")).toBe("made");
	});

	it("refuses a link put at the last component after the check", async () => {
		const target = path.join(project, "big.txt");
		// Classified as a plain file; then swapped for a link to the home's start-up file.
		symlinkSync(outside, target);
		await expect(write(target, "pwned")).rejects.toBeInstanceOf(ContainmentError);
		expect(readFileSync(outside, "utf8")).toBe("original bashrc\n");
	});

	it("refuses a dangling link where a new file was to be created", async () => {
		const target = path.join(project, "new.txt");
		symlinkSync(path.join(root, "home", ".profile"), target);
		await expect(write(target, "pwned")).rejects.toBeInstanceOf(ContainmentError);
		expect(existsSync(path.join(root, "home", ".profile"))).toBe(false);
	});

	it("refuses a parent directory swapped for a link, for existing and new files alike", async () => {
		const src = path.join(project, "src");
		writeFileSync(path.join(src, ".bashrc"), "project file");
		renameSync(src, path.join(project, "src-moved"));
		symlinkSync(path.join(root, "home"), src);
		await expect(write(path.join(src, ".bashrc"), "pwned")).rejects.toBeInstanceOf(ContainmentError);
		await expect(write(path.join(src, ".profile"), "pwned")).rejects.toBeInstanceOf(ContainmentError);
		expect(readFileSync(outside, "utf8")).toBe("original bashrc\n");
		expect(existsSync(path.join(root, "home", ".profile"))).toBe(false);
	});

	it("refuses a link higher up, among directories it would create", async () => {
		symlinkSync(path.join(root, "home"), path.join(project, "gen"));
		await expect(write(path.join(project, "gen", "deep", "x.txt"), "pwned")).rejects.toBeInstanceOf(
			ContainmentError,
		);
		expect(existsSync(path.join(root, "home", "deep"))).toBe(false);
	});

	it("refuses a write through a second name (hard link) unless a human approved a file with other names", async () => {
		const target = path.join(project, "notes.txt");
		writeFileSync(target, "notes");
		linkSync(target, path.join(project, "other-name.txt"));
		await expect(write(target, "x", { create: false })).rejects.toThrow(/2 names/);
		expect(readFileSync(target, "utf8")).toBe("notes");
		await write(target, "approved", { create: false, otherNamesApproved: true });
		expect(readFileSync(target, "utf8")).toBe("approved");
	});

	it("refuses a FIFO in the file's place without hanging, and a directory", async () => {
		const target = path.join(project, "pipe");
		execFileSync("mkfifo", [target]);
		await expect(write(target, "x")).rejects.toThrow();
		mkdirSync(path.join(project, "dir"));
		await expect(openApprovedFile({ realPath: path.join(project, "dir"), access: "read" })).rejects.toThrow(
			/not a regular file/,
		);
	});

	it("reads only the approved file: a link to a refused file is not followed", async () => {
		const inbox = path.join(root, "home", "inbox-request.json");
		writeFileSync(inbox, "secret hash");
		const target = path.join(project, "readme.txt");
		symlinkSync(inbox, target);
		await expect(openApprovedFile({ realPath: target, access: "read" })).rejects.toBeInstanceOf(
			ContainmentError,
		);
	});

	it("takes only an absolute, normalized path", async () => {
		await expect(openApprovedFile({ realPath: "src/x", access: "read" })).rejects.toThrow(/normalized/);
		await expect(openApprovedFile({ realPath: `${project}/src/../x`, access: "read" })).rejects.toThrow(
			/normalized/,
		);
	});
});
