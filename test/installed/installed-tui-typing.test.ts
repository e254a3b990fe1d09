/**
 * A person typing their next message while the agent works, in pi's terminal UI with the packed package
 * installed as users install it (issue 26, adr/0030): a sentence full of answer letters, typed at 0.15 s a key
 * across the moment a dialog opens, answers nothing and saves nothing; the dialog says it ignored the keys; an
 * explicit `y` after a pause allows the call; and every letter typed reaches pi's editor.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAuditLine } from "../../src/audit/audit-entry.ts";
import { TYPING_NOTICE } from "../../src/authority/tui-dialog.ts";
import { writeScript } from "../harness/faux-script.ts";
import { installedTuiSuite } from "../harness/installed-tui-suite.ts";
import { addFauxModel, installIntoFolder, runPi } from "../harness/packed-package.ts";
import { describeResult } from "../harness/run-command.ts";
import { answerAfterPause, waitForScreen } from "../harness/tmux-driver.ts";

const suite = installedTuiSuite("pph-installed-typing-");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every answer key of the root's bash dialog is in it: y, s, p, e, n, r, x (and a, t, l, f, d besides). */
const SENTENCE = "yes please keep the happy path, then always allow";
/** An ordinary typist's pace (issue 26: 0.1–0.2 s a key). */
const KEY_INTERVAL_MS = 150;
const TITLE = "⚠ Permission needed: bash";

describe("typing ahead in pi's terminal UI with the installed package", () => {
	it("a sentence typed across a dialog's opening allows and saves nothing; y after a pause allows; the text reaches the editor", async () => {
		const sb = await suite.sandbox();
		// The agent works for a while (a read that runs unasked), then makes a call that asks.
		await writeScript(sb, {
			conversations: [
				{
					turns: [
						{ calls: [{ tool: "bash", input: { command: "sleep 2" } }] },
						{ calls: [{ tool: "bash", input: { command: "touch x.txt" } }] },
						{ echo: true },
					],
				},
			],
		});
		const installed = await installIntoFolder(suite.packed().tarball, path.join(sb.root, "pi-packages"));
		const install = await runPi(sb, ["install", installed]);
		expect(install.code, describeResult("pi install <folder>", install)).toBe(0);
		await addFauxModel(sb);
		const terminal = await suite.startPi(sb, { args: ["--no-session"] });

		terminal.sendKeys("-l", "run the build");
		terminal.sendKeys("Enter");
		// The person goes on typing their next message while the agent works, across the dialog's opening.
		let keysAfterDialog = 0;
		for (const key of SENTENCE) {
			const at = Date.now();
			terminal.sendKeys("-l", key);
			if (keysAfterDialog > 0 || terminal.screen().includes(TITLE)) keysAfterDialog++;
			await sleep(Math.max(0, KEY_INTERVAL_MS - (Date.now() - at)));
		}
		// Nothing answered the dialog: it is open and says it ignored keys; nothing ran, nothing was saved.
		expect(existsSync(sb.workPath("x.txt"))).toBe(false);
		const userConfig = path.join(sb.agentDir, "pi-permission-hub", "config.json");
		expect(existsSync(userConfig) ? readFileSync(userConfig, "utf8") : "").not.toContain("touch");
		const auditFile = path.join(sb.agentDir, "pi-permission-hub", "audit.jsonl");
		const audit = () =>
			existsSync(auditFile)
				? readFileSync(auditFile, "utf8")
						.split("\n")
						.filter((line) => line.trim() !== "")
						.map((line) => parseAuditLine(line))
						.filter((entry) => entry !== null)
				: [];
		expect(audit().filter((e) => e.source.kind === "user")).toEqual([]);
		expect(keysAfterDialog, "the dialog opened before the sentence's last keys").toBeGreaterThan(5);
		expect(keysAfterDialog, "the dialog opened after the sentence began").toBeLessThan(SENTENCE.length - 3);

		const open = await waitForScreen(terminal, "the dialog saying it ignored the typing", (s) => {
			const start = s.lastIndexOf(TITLE);
			const dialog = start < 0 ? "" : s.slice(start);
			return dialog.includes(TYPING_NOTICE.slice(0, 60)) ? dialog : null;
		});
		expect(open).toContain("│ bash: touch x.txt");

		// A key pressed after a pause answers.
		await answerAfterPause(terminal, "y");
		await waitForScreen(terminal, "x.txt to be touched", () =>
			existsSync(sb.workPath("x.txt")) ? true : null,
		);
		await expect
			.poll(() => audit().filter((e) => e.source.kind === "user"), { timeout: 10_000 })
			.toMatchObject([
				{
					preview: "touch x.txt",
					outcome: "allow",
					source: { kind: "user", verdict: "allow", scope: "once" },
				},
			]);
		// What was typed for the editor is there, whole, in the order typed: none of it was lost to the dialog.
		const editor = await waitForScreen(terminal, "the typed sentence in pi's editor", (s) =>
			!s.includes(TITLE) && s.includes(SENTENCE) ? s : null,
		);
		expect(editor.split(SENTENCE).length - 1).toBe(1);
		expect(existsSync(userConfig) ? readFileSync(userConfig, "utf8") : "").not.toContain("touch");
	}, 300_000);
});
