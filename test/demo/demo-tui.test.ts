/**
 * The interactive demo in a real terminal: `node demo/run.ts` inside a 120×40 tmux pane, pi in its terminal UI,
 * the extension's inline dialog answered with single keys (y, y, y, n) exactly as a person would, the screen read
 * back with capture-pane, and the files checked on disk afterwards.
 *
 * tmux is a system package (Debian: `tmux`). Without it this test fails with a message saying so: a TUI path
 * that was never exercised must not pass.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXIT_DELAY_ENV } from "../../demo/demo-model-extension.ts";
import { dialogMatches, EXPECTED_DIALOGS, FILES, NOTES_CONTENT } from "../../demo/scenario.ts";
import { node22Binary } from "../harness/paths.ts";
import { answerAfterPause, findTmux, TmuxPane, waitForScreen } from "../harness/tmux-driver.ts";
import { DEMO_SCRIPT, demoAudit, demoEnvironment, removeScratch, scratchDir } from "./demo-process.ts";

/** Set to a file path to save the forwarded dialog's screen (the README quick start shows it). */
const SCREEN_OUT_ENV = "PPH_DEMO_SCREEN_OUT";

let scratch: string | undefined;
let pane: TmuxPane | undefined;
afterEach(async () => {
	pane?.kill();
	pane = undefined;
	await removeScratch(scratch);
	scratch = undefined;
});

interface ScreenDialog {
	/** Heading (without the countdown) and body lines, as the RPC select title carries them. */
	readonly text: string;
	/** The `[k] label` lines. */
	readonly keys: readonly string[];
}

/** The gate's inline dialog on screen: `⚠ Permission needed: …` and the `│ `-prefixed lines under it. */
function dialogOnScreen(screen: string): ScreenDialog | null {
	const rows = screen.split("\n");
	const start = rows.findLastIndex((row) => row.startsWith("⚠ Permission needed: "));
	if (start < 0) return null;
	const body: string[] = [];
	for (const row of rows.slice(start + 1)) {
		if (!row.startsWith("│")) break;
		body.push(row.slice(1).trim());
	}
	if (!body.some((line) => line.startsWith("[Esc]"))) return null; // still being drawn
	const heading = (rows[start] ?? "").slice(2).replace(/\s+\(answer within \d+:\d\d\)\s*$/, "");
	const lines = body.filter((line) => line !== "" && !line.startsWith("["));
	return { text: [heading, ...lines].join("\n"), keys: body.filter((line) => line.startsWith("[")) };
}

/** Each wait below names what it waited for when it gives up; the whole run gets room for all of them under load. */
const TEST_TIMEOUT_MS = 240_000;

/**
 * The pane's shell prints this with the demo's exit status once it ends. The shell reaps the demo itself: tmux
 * 3.3 was seen leaving a finished pane process a zombie without recording its status (CI's clean clone, every run).
 */
const EXIT_MARK = "demo exit status:";

function quote(arg: string): string {
	return `'${arg.replaceAll("'", "'\\''")}'`;
}

describe("the interactive demo in a terminal (tmux)", () => {
	it(
		"shows each dialog inline; y, y, y, n answer them; the denied folder is still there",
		async () => {
			if (findTmux() === null) {
				throw new Error("tmux is not installed (Debian: apt-get install tmux): the TUI demo test cannot run");
			}
			scratch = await scratchDir();
			const root = path.join(scratch, "demo");
			const demo = [node22Binary(), DEMO_SCRIPT, "--keep", root].map(quote).join(" ");
			const command = `${demo}; echo "${EXIT_MARK} $?"`;
			pane = TmuxPane.start({
				dir: scratch,
				command,
				cols: 120,
				rows: 40,
				env: demoEnvironment({ [EXIT_DELAY_ENV]: "1500" }),
			});
			const terminal = pane;

			await waitForScreen(terminal, "the banner's Enter prompt", (s) =>
				s.includes("Press Enter to start") ? true : null,
			);
			expect(terminal.screen()).toContain("Requested by: subagent root ← cleaner");
			terminal.sendKeys("Enter");

			for (const [index, expected] of EXPECTED_DIALOGS.entries()) {
				const what = `dialog ${index + 1} (${expected.tool}: ${expected.preview})`;
				const dialog = await waitForScreen(terminal, what, (s) => {
					const shown = dialogOnScreen(s);
					return shown && dialogMatches(shown.text, expected) ? shown : null;
				});
				expect(dialog.text).toContain(`Tier: ${expected.tier}`);
				expect(dialog.keys).toContain(`[${expected.answer.key}] ${expected.answer.label}`);
				if (expected.requestedBy !== null) {
					expect(dialog.text).toContain(`Requested by: ${expected.requestedBy}`);
					expect(dialog.keys).toEqual([
						"[y] Allow once",
						`[a] Allow for this subagent: ${expected.preview}`,
						`[t] Allow for the whole tree: ${expected.preview}`,
						"[n] Deny",
						"[r] Deny with a reason…",
						expect.stringMatching(/^\[x\] Always deny in \//),
						"[Esc] dismiss (counts as deny)",
					]);
					const out = process.env[SCREEN_OUT_ENV];
					if (out) writeFileSync(out, terminal.screen());
				} else {
					expect(dialog.text).not.toContain("Requested by:");
				}
				// A dialog takes a key only after a pause in typing, once it has been on screen a moment (adr/0030).
				await answerAfterPause(terminal, expected.answer.key);
				await waitForScreen(terminal, `dialog ${index + 1} to close`, (s) => {
					const shown = dialogOnScreen(s);
					return shown && dialogMatches(shown.text, expected) ? null : true;
				});
			}

			const status = await waitForScreen(terminal, "the demo to exit", () => {
				const ended = new RegExp(`^${EXIT_MARK} (\\d+)$`, "m").exec(terminal.history());
				return ended ? Number(ended[1]) : null;
			});
			const history = terminal.history();
			expect(status, history).toBe(0);
			expect(history).toContain("✓ important/keep-me.txt  still there: the gate blocked `rm -rf important/`");
			expect(history).toContain("pi-permission-hub sessions: 6 decisions in 2 origin groups");

			const project = path.join(root, "project");
			expect(readFileSync(path.join(project, FILES.notes), "utf8")).toBe(NOTES_CONTENT);
			expect(existsSync(path.join(project, FILES.oldLog))).toBe(false);
			expect(existsSync(path.join(project, FILES.importantFile))).toBe(true);
			const audit = demoAudit(root);
			expect(audit.filter((e) => e.source.kind === "user" && e.event === "tool_call").length).toBe(3);
			expect(audit.at(-1)).toMatchObject({
				origin: { kind: "human" },
				preview: "rm -rf important/",
				outcome: "deny",
				source: { kind: "user", via: "dialog", verdict: "deny" },
			});
		},
		TEST_TIMEOUT_MS,
	);
});
