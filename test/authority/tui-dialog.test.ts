/**
 * The TUI dialog component, driven as pi's TUI drives it (render, then raw key data), with pi-tui's own key
 * matching and wrapping: the key guard of a forwarded dialog, and the change with its page key.
 */
import type { ExtensionUIContext, Theme } from "@earendil-works/pi-coding-agent";
import { Key, matchesKey, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { describe, expect, it } from "vitest";
import type { AskPrompt } from "../../src/authority/ask-prompt.ts";
import type { ChangePreview } from "../../src/authority/change-preview.ts";
import type { DialogResult } from "../../src/authority/dialog-presenter.ts";
import { FORWARDED_KEY_PAUSE_MS, tuiDialog } from "../../src/authority/tui-dialog.ts";
import type { ForwardedDialogKeys } from "../../src/policy/config-schema.ts";

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

const PROMPT: AskPrompt = {
	title: "Permission needed: edit (write)",
	lines: ["edit: src/a.ts: 1 edit, +1/-1 lines", "Tier: write", "Directory: /work/project"],
	choices: [
		{ key: "y", label: "Allow once", answer: { kind: "allow", scope: "once" } },
		{ key: "n", label: "Deny", answer: { kind: "deny", withReason: false } },
	],
	dismiss: "deny",
};

/** The dialog on a terminal of `rows` rows: its component, and the result once a key answered it. */
function open(
	prompt: AskPrompt,
	options: { forwarded: boolean; keys?: ForwardedDialogKeys; rows?: number },
): { component: Component; result: Promise<DialogResult>; renders: () => number } {
	let component: Component | undefined;
	let renders = 0;
	const tui = { requestRender: () => renders++, terminal: { rows: options.rows ?? 40 } };
	const ui = {
		custom: (factory: (tui: unknown, theme: Theme, keys: unknown, done: (v: unknown) => void) => Component) =>
			new Promise((resolve) => {
				component = factory(tui, plainTheme, undefined, resolve);
			}),
	} as unknown as ExtensionUIContext;
	const result = tuiDialog(ui, kit, options.keys ?? "pause").present(prompt, {
		timeoutMs: 60_000,
		forwarded: options.forwarded,
	});
	if (!component) throw new Error("the dialog did not open");
	return { component, result, renders: () => renders };
}

async function settled(result: Promise<DialogResult>): Promise<DialogResult | "open"> {
	return Promise.race([result, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 20))]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a forwarded dialog guards its keys", () => {
	it("pause: keys in its first 400 ms are ignored, Esc included; after that one key answers", async () => {
		const { component, result } = open(PROMPT, { forwarded: true, keys: "pause" });
		component.handleInput("y");
		component.handleInput(ESC);
		expect(await settled(result)).toBe("open");
		await sleep(FORWARDED_KEY_PAUSE_MS + 50);
		component.handleInput("y");
		expect(await result).toEqual({ kind: "answer", answer: { kind: "allow", scope: "once" } });
	});

	it("this session's own dialog answers the first key at once", async () => {
		const { component, result } = open(PROMPT, { forwarded: false, keys: "pause" });
		component.handleInput("y");
		expect(await result).toEqual({ kind: "answer", answer: { kind: "allow", scope: "once" } });
	});

	it("twice: an answer needs its key twice in a row, and the dialog says which key is waiting", async () => {
		const { component, result } = open(PROMPT, { forwarded: true, keys: "twice" });
		component.handleInput("y");
		expect(component.render(100)).toContain("│ Press y again to answer: Allow once");
		component.handleInput("n");
		component.handleInput("y");
		expect(await settled(result)).toBe("open");
		component.handleInput("y");
		expect(await result).toEqual({ kind: "answer", answer: { kind: "allow", scope: "once" } });
	});

	it("twice: Esc too", async () => {
		const { component, result } = open(PROMPT, { forwarded: true, keys: "twice" });
		component.handleInput(ESC);
		expect(await settled(result)).toBe("open");
		component.handleInput(ESC);
		expect(await result).toEqual({ kind: "dismissed" });
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
		const { component, result } = open(withChange, { forwarded: false, rows });
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
			component.handleInput("d");
			rendered = component.render(100);
			expect(rendered.length).toBeLessThanOrEqual(first.length);
			expect(pageOf(rendered).from).toBeGreaterThan(1);
		}
		for (const row of rendered) seen.add(row);
		expect(pageOf(rendered).to).toBe(62);
		expect(seen).toContain("│ +new line 60");
		component.handleInput("d");
		expect(component.render(100)).toEqual(first);

		component.handleInput("n");
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
