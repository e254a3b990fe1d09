/**
 * The TUI dialog component, driven as pi's TUI drives it (render, then raw key data: pi's input listener, the
 * session's typing watch, hears each key before the focused component), with pi-tui's own key matching and
 * wrapping, on a clock the test moves: the key rule (adr/0030) and its notices, the Enter that confirms an answer
 * outliving the call, the text given back to the editor, the change with its page key, and a long forwarded edit
 * on terminals from 40×12 to 120×50, its keys always on screen.
 */
import type { ExtensionUIContext, Theme } from "@earendil-works/pi-coding-agent";
import { Key, matchesKey, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { beforeAll, describe, expect, it } from "vitest";
import { type AskPrompt, buildAskPrompt } from "../../src/authority/ask-prompt.ts";
import type { ChangePreview } from "../../src/authority/change-preview.ts";
import type { DialogResult } from "../../src/authority/dialog-presenter.ts";
import { ALONE_MS, QUIET_MS, SHOWN_MS } from "../../src/authority/key-rule.ts";
import {
	TOO_SOON_NOTICE,
	TYPING_NOTICE,
	tuiDialog,
	UNSEEN_COMMAND_NOTICE,
} from "../../src/authority/tui-dialog.ts";
import { TypingWatch } from "../../src/authority/typing-watch.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import type { ForwardedDialogKeys } from "../../src/policy/config-schema.ts";
import { bashParser } from "../classify/classify-fixture.ts";
import { askFor } from "./ask-fixture.ts";

const kit = { Key, matchesKey, truncateToWidth, visibleWidth, wrapTextWithAnsi };

/** No colors, so rendered rows can be compared as text. */
const plainTheme = {
	fg: (_color: string, text: string) => text,
	bold: (text: string) => text,
} as unknown as Theme;

interface Component {
	render(width: number): string[];
	handleInput(data: string): void;
}

const ESC = "\u001b";
const ENTER = "\r";

const PROMPT: AskPrompt = {
	title: "Permission needed: edit (write)",
	lines: ["edit: src/a.ts: 1 edit, +1/-1 lines", "Tier: write", "Directory: /work/project"],
	choices: [
		{ key: "y", label: "Allow once", answer: { kind: "allow", scope: "once" } },
		{ key: "n", label: "Deny", answer: { kind: "deny", withReason: false } },
	],
	dismiss: "deny",
};

const ALWAYS: AskPrompt = {
	...PROMPT,
	choices: [
		...PROMPT.choices,
		{
			key: "p",
			label: "Always allow in /work/project: touch *",
			answer: { kind: "always", verdict: "allow", where: "project" },
		},
		{
			key: "t",
			label: "Allow for the whole tree: touch *",
			answer: { kind: "allow", scope: "tree" },
		},
	],
};

/** A pause long enough for any key to answer, after the last key and after the dialog showed. */
const PAUSE = Math.max(QUIET_MS, SHOWN_MS) + 100;
/** An ordinary typist's interval between keys. */
const TYPING = 150;

interface Opened {
	readonly component: Component;
	readonly result: Promise<DialogResult>;
	readonly renders: () => number;
	/** The editor's text: what was there, and what the dialog gave back. */
	readonly editor: () => string;
	/** `ms` later, a key as pi delivers it: its input listeners (the typing watch) first, then the dialog. */
	readonly press: (data: string, ms?: number) => void;
	/** Each character `ms` after the one before. */
	readonly type: (text: string, ms?: number) => void;
	/** Move the clock without a key. */
	readonly wait: (ms: number) => void;
}

/**
 * The dialog on a terminal of `rows` rows, drawn at once (as pi draws it), with the typing watch on the test's
 * clock; `typedBefore` keys were pressed in the editor before it opened, the last `lastKeyAgo` ms before.
 */
function open(
	prompt: AskPrompt,
	options: { forwarded: boolean; keys?: ForwardedDialogKeys; rows?: number; lastKeyAgo?: number },
): Opened {
	let now = 10_000;
	const watch = new TypingWatch(() => now);
	if (options.lastKeyAgo !== undefined) {
		now -= options.lastKeyAgo;
		watch.listener("h");
		now += options.lastKeyAgo;
	}
	let component: Component | undefined;
	let renders = 0;
	let editor = "draft: ";
	const tui = { requestRender: () => renders++, terminal: { rows: options.rows ?? 40 } };
	const ui = {
		custom: (factory: (tui: unknown, theme: Theme, keys: unknown, done: (v: unknown) => void) => Component) =>
			new Promise((resolve) => {
				component = factory(tui, plainTheme, undefined, resolve);
			}),
		getEditorText: () => editor,
		setEditorText: (text: string) => {
			editor = text;
		},
	} as unknown as ExtensionUIContext;
	const result = tuiDialog(ui, kit, options.keys ?? "pause", watch).present(prompt, {
		timeoutMs: 60_000,
		forwarded: options.forwarded,
	});
	const shown = component;
	if (!shown) throw new Error("the dialog did not open");
	shown.render(100);
	const press = (data: string, ms = PAUSE): void => {
		now += ms;
		watch.listener(data);
		shown.handleInput(data);
	};
	return {
		component: shown,
		result,
		renders: () => renders,
		editor: () => editor,
		press,
		type: (text, ms = TYPING) => {
			for (const c of text) press(c, ms);
		},
		wait: (ms) => {
			now += ms;
		},
	};
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settled(result: Promise<DialogResult>): Promise<DialogResult | "open"> {
	return Promise.race([result, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 20))]);
}

const ALLOW_ONCE: DialogResult = { kind: "answer", answer: { kind: "allow", scope: "once" } };

describe("only keys meant for the dialog answer it (adr/0030)", () => {
	it("a sentence typed across the dialog's opening answers nothing; the dialog says so; the text goes to the editor", async () => {
		const dialog = open(ALWAYS, { forwarded: false, lastKeyAgo: TYPING });
		dialog.type("yes please keep the happy path, then always allow");
		expect(await settled(dialog.result)).toBe("open");
		expect(dialog.component.render(100).at(-1)).toBe(`│ ${TYPING_NOTICE}`);
		dialog.press("y");
		expect(await dialog.result).toEqual(ALLOW_ONCE);
		expect(dialog.editor()).toBe("draft: yes please keep the happy path, then always allow");
	});

	it("a key in the dialog's first moments is ignored, Esc included, even after a long quiet; later one key answers", async () => {
		const dialog = open(PROMPT, { forwarded: false, lastKeyAgo: 60_000 });
		dialog.press("y", SHOWN_MS - 100);
		dialog.press(ESC, 50);
		expect(await settled(dialog.result)).toBe("open");
		expect(dialog.component.render(100).at(-1)).toBe(`│ ${TOO_SOON_NOTICE}`);
		// After a pause, a key that answers nothing is taken: the notice goes, and its letter is the editor's.
		dialog.press("q");
		expect(dialog.component.render(100)).not.toContain(`│ ${TOO_SOON_NOTICE}`);
		dialog.press("y");
		expect(await dialog.result).toEqual(ALLOW_ONCE);
		expect(dialog.editor()).toBe("draft: yq");
	});

	it("an answer needs a pause before it: the next key of a burst is ignored, whatever the dialog's age", async () => {
		const dialog = open(PROMPT, { forwarded: false });
		dialog.wait(5_000);
		dialog.press("k");
		dialog.press("n", QUIET_MS - 10);
		expect(await settled(dialog.result)).toBe("open");
		dialog.press("n", QUIET_MS + 10);
		expect(await dialog.result).toEqual({ kind: "answer", answer: { kind: "deny", withReason: false } });
	});

	it("a word begun after a pause answers nothing: its first letter is followed too soon by the next", async () => {
		const dialog = open(ALWAYS, { forwarded: false });
		dialog.press("y");
		dialog.type("es");
		dialog.press(" ", TYPING);
		dialog.press("p");
		dialog.type("lease");
		// The answer waits ALONE_MS for a following key: none came for the first y or p, so neither answered.
		await sleep(ALONE_MS + 100);
		expect(await settled(dialog.result)).toBe("open");
		expect(dialog.component.render(100).at(-1)).toBe(`│ ${TYPING_NOTICE}`);
		dialog.press("n");
		expect(await dialog.result).toEqual({ kind: "answer", answer: { kind: "deny", withReason: false } });
		expect(dialog.editor()).toBe("draft: yes please");
	});

	it("a paste never answers, and its text goes to the editor", async () => {
		const dialog = open(PROMPT, { forwarded: false });
		dialog.press("\u001b[200~y\u001b[201~");
		dialog.press("yy");
		expect(await settled(dialog.result)).toBe("open");
		dialog.press(ESC);
		expect(await dialog.result).toEqual({ kind: "dismissed" });
		expect(dialog.editor()).toBe("draft: yyy");
	});

	it("Backspace in a burst takes back an ignored character; Enter in it submits nothing", async () => {
		const dialog = open(PROMPT, { forwarded: false, lastKeyAgo: TYPING });
		dialog.type("nox");
		dialog.press("\u007f", TYPING);
		dialog.press(ENTER, TYPING);
		dialog.press("n");
		expect(await dialog.result).toEqual({ kind: "answer", answer: { kind: "deny", withReason: false } });
		expect(dialog.editor()).toBe("draft: no");
	});

	it("a key the listener did not hear still counts for the next", async () => {
		const dialog = open(PROMPT, { forwarded: false });
		dialog.wait(PAUSE);
		dialog.component.handleInput("k");
		dialog.wait(TYPING);
		dialog.component.handleInput("y");
		expect(await settled(dialog.result)).toBe("open");
		dialog.press("y");
		expect(await dialog.result).toEqual(ALLOW_ONCE);
	});
});

describe("an answer that outlives the call waits for Enter", () => {
	it.each(["p", "t"])("%s: Enter after it takes it; any other key goes back", async (key) => {
		const dialog = open(ALWAYS, { forwarded: true });
		const choice = ALWAYS.choices.find((c) => c.key === key);
		const verb = choice?.answer.kind === "always" ? "save" : "confirm";
		dialog.press(key);
		expect(dialog.component.render(100).at(-1)).toBe(
			`│ Press Enter to ${verb}: ${choice?.label} — any other key goes back`,
		);
		dialog.press("q");
		expect(dialog.component.render(100).at(-1)).not.toMatch(/Press Enter/);
		dialog.press(ENTER);
		expect(await settled(dialog.result)).toBe("open");
		dialog.press(key);
		// Enter in a burst is ignored like any key, and the armed answer goes back.
		dialog.press(ENTER, TYPING);
		expect(await settled(dialog.result)).toBe("open");
		dialog.press(key);
		dialog.press(ENTER);
		expect(await dialog.result).toEqual({ kind: "answer", answer: choice?.answer });
	});
});

describe("twice: a forwarded dialog's answer needs its key twice", () => {
	it("and the dialog says which key is waiting", async () => {
		const { press, component, result } = open(PROMPT, { forwarded: true, keys: "twice" });
		press("y");
		expect(component.render(100)).toContain("│ Press y again to answer: Allow once");
		press("n");
		press("y");
		expect(await settled(result)).toBe("open");
		press("y");
		expect(await result).toEqual(ALLOW_ONCE);
	});

	it("Esc too", async () => {
		const { press, result } = open(PROMPT, { forwarded: true, keys: "twice" });
		press(ESC);
		expect(await settled(result)).toBe("open");
		press(ESC);
		expect(await result).toEqual({ kind: "dismissed" });
	});

	it("this session's own dialog takes one key", async () => {
		const { press, result } = open(PROMPT, { forwarded: false, keys: "twice" });
		press("y");
		expect(await result).toEqual(ALLOW_ONCE);
	});
});

describe("the change", () => {
	const change: ChangePreview = {
		summary: "1 line removed, 60 added",
		lines: [
			{ kind: "hunk", text: "@@ -1,1 +1,60 @@" },
			{ kind: "removed", text: "old line" },
			...Array.from({ length: 60 }, (_, i) => ({ kind: "added" as const, text: `new line ${i + 1}` })),
		],
	};
	const withChange: AskPrompt = { ...PROMPT, change };

	it("shows a screenful that leaves pi its rows, and `d` turns the pages, back to the first after the last", async () => {
		const rows = 30;
		const { component, result, press } = open(withChange, { forwarded: false, rows });
		const first = component.render(100);
		// pi's fullscreen layout keeps rows of its own (transcript, footer) and cuts a taller dialog at the bottom.
		expect(first.length).toBeLessThanOrEqual(rows - 5);
		expect(first.at(-1)).toBe("│ [Esc] dismiss (counts as deny)");
		expect(first).toContain("│ Change: 1 line removed, 60 added");
		expect(first).toContain("│ -old line");
		expect(first).toContain("│ +new line 1");
		expect(first).not.toContain("│ +new line 60");
		const pager = /^│ rows (\d+)–(\d+) of 62 · \[d\] (next rows|back to the first rows)$/;
		const pageOf = (rendered: readonly string[]) => {
			const match = rendered.map((row) => pager.exec(row)).find((m) => m !== null);
			if (!match) throw new Error(`no page line in:\n${rendered.join("\n")}`);
			return { from: Number(match[1]), to: Number(match[2]), next: match[3] };
		};
		expect(pageOf(first)).toMatchObject({ from: 1, next: "next rows" });

		// Every row of the change is shown on some page, each page as short as the first.
		const seen = new Set<string>();
		let rendered = first;
		for (let turns = 0; pageOf(rendered).next === "next rows"; turns++) {
			expect(turns).toBeLessThan(62);
			for (const row of rendered) seen.add(row);
			press("d");
			rendered = component.render(100);
			expect(rendered.length).toBeLessThanOrEqual(first.length);
			expect(pageOf(rendered).from).toBeGreaterThan(1);
		}
		for (const row of rendered) seen.add(row);
		expect(pageOf(rendered).to).toBe(62);
		expect(seen).toContain("│ +new line 60");
		press("d");
		expect(component.render(100)).toEqual(first);

		press("n");
		expect(await result).toEqual({ kind: "answer", answer: { kind: "deny", withReason: false } });
	});

	it("a change that fits offers no key", () => {
		const small: AskPrompt = {
			...PROMPT,
			change: { summary: "1 line removed, 0 added", lines: change.lines.slice(0, 2) },
		};
		const { component } = open(small, { forwarded: false });
		const rendered = component.render(100);
		expect(rendered).toContain("│ -old line");
		expect(rendered.some((row) => row.includes("[d]"))).toBe(false);
		component.handleInput("n");
	});
});

describe("a long forwarded edit on a short terminal", () => {
	const cwd = "/home/someone/projects/a-rather-long-project-name/packages/server";
	const grant = `write ${cwd}/*`;
	const lines = Array.from({ length: 40 }, (_, i) =>
		i < 20
			? { kind: "removed" as const, text: `export const n${i} = ${i};` }
			: { kind: "added" as const, text: `export const n${i - 20} = ${(i - 20) * 10};` },
	);
	/** As buildAskPrompt words a forwarded edit, with a reason and a requester that wrap on 80 columns. */
	const forwardedEdit: AskPrompt = {
		title: "Permission needed: edit (write)",
		lines: [
			"edit: src/numbers.ts: 1 edit, +20/-20 lines",
			"Tier: write",
			"Why: the write tier asks (built-in default) for: writes src/numbers.ts, which none of the rules of this project allow",
			"Requested by: subagent root ← planner ← implementer-of-the-numbers-module ← a-grandchild-with-a-long-name",
			`Directory: ${cwd}`,
		],
		choices: [
			{ key: "y", label: "Allow once", answer: { kind: "allow", scope: "once" } },
			{ key: "a", label: `Allow for this subagent: ${grant}`, answer: { kind: "allow", scope: "subagent" } },
			{ key: "t", label: `Allow for the whole tree: ${grant}`, answer: { kind: "allow", scope: "tree" } },
			{
				key: "p",
				label: `Always allow in ${cwd}: ${grant}`,
				answer: { kind: "always", verdict: "allow", where: "project" },
			},
			{
				key: "e",
				label: `Always allow everywhere: ${grant}`,
				answer: { kind: "always", verdict: "allow", where: "everywhere" },
			},
			{ key: "n", label: "Deny", answer: { kind: "deny", withReason: false } },
			{ key: "r", label: "Deny with a reason…", answer: { kind: "deny", withReason: true } },
			{
				key: "x",
				label: `Always deny in ${cwd}: ${grant}`,
				answer: { kind: "always", verdict: "deny", where: "project" },
			},
		],
		change: {
			summary: "20 lines removed, 20 added",
			lines: [{ kind: "hunk", text: "@@ -7,26 +7,26 @@" }, ...lines],
		},
		dismiss: "deny",
	};
	const changeRows = ["@@ -7,26 +7,26 @@", ...lines.map((l) => `${l.kind === "added" ? "+" : "-"}${l.text}`)];
	// On 40 columns "back to the first rows" is cut.
	const pager = /^│ rows (\d+)–(\d+) of 41 · \[d\] (next rows$|back)/;
	const keyRow = (key: string) => new RegExp(`(^│ |  )\\[${key}\\] `);
	/** pi keeps 5 rows of the screen for itself (transcript, footer). */
	const budget = (rows: number) => rows - 5;

	/** Every key and Esc on screen, inside the rows pi leaves and the terminal's width. */
	function expectKeysOnScreen(rendered: readonly string[], width: number, rows: number): void {
		const where = `${width}×${rows}:\n${rendered.join("\n")}`;
		expect(rendered.length, where).toBeLessThanOrEqual(budget(rows));
		for (const row of rendered) expect(visibleWidth(row), where).toBeLessThanOrEqual(width);
		for (const key of ["y", "a", "t", "p", "e", "n", "r", "x", "Esc"])
			expect(
				rendered.some((row) => keyRow(key).test(row)),
				`[${key}] on ${where}`,
			).toBe(true);
	}

	const sizes = [40, 60, 80, 120].flatMap((width) =>
		[12, 16, 20, 24, 30, 50].map((rows) => ({ width, rows })),
	);

	it.each(sizes)(
		"$width×$rows: the keys are always on screen; from 16 rows the title, what is asked and a page of the change too",
		({ width, rows }) => {
			const { component } = open(forwardedEdit, { forwarded: true, rows });
			const quiet = component.render(width);
			component.handleInput("n");
			const noticed = component.render(width);
			expect(noticed).toContain(`│ ${truncateToWidth(TOO_SOON_NOTICE, Math.max(20, width - 2))}`);
			for (const rendered of [quiet, noticed]) {
				expectKeysOnScreen(rendered, width, rows);
				if (rows < 16) continue;
				expect(rendered[0]).toMatch(/^⚠ Permission needed: edit \(write\)/);
				expect(rendered[1]).toMatch(/^│ edit: src\/numbers\.ts/);
				expect(rendered.some((row) => pager.test(row))).toBe(true);
				expect(rendered).toContain("│ @@ -7,26 +7,26 @@");
			}
		},
	);

	it("as the terminal shrinks: the change down to 6 rows, the blank rows, the change down to 2, the body cut, the change down to 1, keys in columns", () => {
		const shapeAt = (rows: number) => {
			const rendered = open(forwardedEdit, { forwarded: false, rows }).component.render(80);
			expectKeysOnScreen(rendered, 80, rows);
			const title = rendered.indexOf("│ Change: 20 lines removed, 20 added");
			const blanks = rendered.filter((row) => row === "│ ").length;
			return {
				blanks,
				head: title - blanks / 2,
				change: rendered.findIndex((row) => pager.test(row)) - title - 1,
				keyRows: rendered.length - rendered.findIndex((row) => row.startsWith("│ [y]")),
			};
		};
		// The title and 5 body lines, two of them wrapped on 80 columns: 8 rows whole, 6 cut.
		expect([40, 32, 31, 30, 29, 26, 25, 24, 23, 22, 16].map((rows) => ({ rows, ...shapeAt(rows) }))).toEqual([
			{ rows: 40, blanks: 2, head: 8, change: 14, keyRows: 9 },
			{ rows: 32, blanks: 2, head: 8, change: 6, keyRows: 9 },
			{ rows: 31, blanks: 0, head: 8, change: 7, keyRows: 9 },
			{ rows: 30, blanks: 0, head: 8, change: 6, keyRows: 9 },
			{ rows: 29, blanks: 0, head: 8, change: 5, keyRows: 9 },
			{ rows: 26, blanks: 0, head: 8, change: 2, keyRows: 9 },
			{ rows: 25, blanks: 0, head: 6, change: 3, keyRows: 9 },
			{ rows: 24, blanks: 0, head: 6, change: 2, keyRows: 9 },
			{ rows: 23, blanks: 0, head: 6, change: 1, keyRows: 9 },
			{ rows: 22, blanks: 0, head: 6, change: 4, keyRows: 5 },
			{ rows: 16, blanks: 0, head: 3, change: 1, keyRows: 5 },
		]);
		// 80×24: the body's lines a row each, 2 rows of change.
		const at24 = open(forwardedEdit, { forwarded: false, rows: 24 }).component.render(80);
		expect(at24.slice(0, 6).map((row) => row.slice(0, 8))).toEqual([
			"⚠ Permis",
			"│ edit: ",
			"│ Tier: ",
			"│ Why: t",
			"│ Reques",
			"│ Direct",
		]);
		// Cut to one row, pi-tui's ellipsis at its end.
		expect(at24[3]).toContain("src/numbers.ts, whi");
		expect(at24[3]).not.toContain("which");
		expect(at24[3]).toContain("...");
		expect(at24.slice(6, 10)).toEqual([
			"│ Change: 20 lines removed, 20 added",
			"│ @@ -7,26 +7,26 @@",
			"│ -export const n0 = 0;",
			"│ rows 1–2 of 41 · [d] next rows",
		]);
		expect(at24.at(-1)).toBe("│ [Esc] dismiss (counts as deny)");
	});

	it.each([
		{ width: 80, rows: 24 },
		{ width: 80, rows: 16 },
		{ width: 40, rows: 24 },
	])("$width×$rows: d pages through every row of the change, the keys on every page", ({ width, rows }) => {
		const { component, press } = open(forwardedEdit, { forwarded: false, rows });
		const seen = new Set<string>();
		let rendered = component.render(width);
		const first = rendered;
		for (let turns = 0; ; turns++) {
			expect(turns).toBeLessThan(41);
			expectKeysOnScreen(rendered, width, rows);
			for (const row of rendered) seen.add(row);
			const page = rendered.map((row) => pager.exec(row)).find((m) => m !== null);
			if (!page) throw new Error(`no page line in:\n${rendered.join("\n")}`);
			if (page[3] === "back") {
				expect(Number(page[2])).toBe(41);
				break;
			}
			press("d");
			rendered = component.render(width);
		}
		for (const row of changeRows) expect(seen).toContain(truncateToWidth(`│ ${row}`, width));
		press("d");
		expect(component.render(width)).toEqual(first);
	});
});

describe("what runs is on screen whole before an allow is taken (adr/0021)", () => {
	const removes = Array.from({ length: 60 }, (_, i) => `rm -rf build/cache${i}`).join("; ");
	const command = `echo -----BEGIN PRIVATE KEY-----; ${removes}; rm -rf ../victim-outside; echo -----END PRIVATE KEY-----`;
	let bash: BashParser;
	beforeAll(async () => {
		bash = await bashParser();
	});

	it("a terminal tall enough shows every part and the outside path, wrapped, and takes the allow", async () => {
		const prompt = buildAskPrompt(askFor(bash, command), { forwarded: false });
		expect(prompt.lines.slice(0, 2)).toEqual([`bash: ${command}`, "Outside the project: ../victim-outside"]);
		const dialog = open(prompt, { forwarded: false, rows: 60 });
		const screen = dialog.component
			.render(80)
			.map((row) => row.replace(/^│ /, ""))
			.join(" ")
			.replace(/\s+/g, " ");
		for (let i = 0; i < 60; i++) expect(screen).toContain(`rm -rf build/cache${i};`);
		expect(screen).toContain("rm -rf ../victim-outside");
		expect(screen).toContain("Outside the project: ../victim-outside");
		// The session grant's label (61 exact commands) is cut on 80 columns: it cannot be chosen unread.
		dialog.press("s");
		await sleep(ALONE_MS + 100);
		expect(await settled(dialog.result)).toBe("open");
		expect(dialog.component.render(80).join("\n")).toContain(UNSEEN_COMMAND_NOTICE);
		dialog.press("y");
		expect(await dialog.result).toEqual(ALLOW_ONCE);
	});

	it("a terminal too short for the whole command refuses every allow, says why, and still takes a deny", async () => {
		const prompt = buildAskPrompt(askFor(bash, command), { forwarded: false });
		const dialog = open(prompt, { forwarded: false, rows: 24 });
		dialog.component.render(80);
		for (const key of ["y", "s", "p", "e"]) {
			dialog.press(key);
			await sleep(ALONE_MS + 100);
			expect(await settled(dialog.result)).toBe("open");
		}
		expect(dialog.component.render(80).join("\n")).toContain(UNSEEN_COMMAND_NOTICE);
		dialog.press("n");
		expect(await dialog.result).toEqual({ kind: "answer", answer: { kind: "deny", withReason: false } });
	});

	it("an answer whose label is cut (a grant's pattern) is refused until the terminal is wide enough", async () => {
		const prompt = buildAskPrompt(askFor(bash, "git checkout main"), { forwarded: false });
		const dialog = open(prompt, { forwarded: false, rows: 40 });
		dialog.component.render(40);
		dialog.press("p");
		await sleep(ALONE_MS + 100);
		expect(await settled(dialog.result)).toBe("open");
		dialog.component.render(100);
		dialog.press("p");
		await sleep(ALONE_MS + 100);
		// `p` outlives the call: it wants Enter.
		dialog.press(ENTER);
		expect(await dialog.result).toEqual({
			kind: "answer",
			answer: { kind: "always", verdict: "allow", where: "project" },
		});
	});
});
