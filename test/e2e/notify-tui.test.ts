/**
 * The `notify` setting in pi's real terminal UI: pi runs in a private tmux server under `script`, which records
 * every byte pi writes to its terminal. When the dialog opens, the configured desktop notification sequence is
 * among them, once, passed through tmux (pi sees `$TMUX`), and naming the tool and tier but not the command.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, node22Binary, PI_CLI } from "../harness/paths.ts";
import { answerAfterPause, findTmux, TmuxPane, waitForScreen } from "../harness/tmux-driver.ts";
import { bash, cleanupSandboxes, gateSandbox, scriptOf, writeUserConfig } from "./gate-support.ts";

let pane: TmuxPane | undefined;

beforeAll(() => {
	if (findTmux() === null) {
		throw new Error("tmux is not installed (Debian: apt-get install tmux): the notify TUI test cannot run");
	}
});

afterEach(async () => {
	pane?.kill();
	pane = undefined;
	await cleanupSandboxes();
});

function quote(arg: string): string {
	return `'${arg.replaceAll("'", "'\\''")}'`;
}

const OSC777_IN_TMUX = "\x1bPtmux;\x1b\x1b]777;notify;pi;Permission needed: bash (destructive)\x07\x1b\\";

describe("notify in pi's terminal UI", () => {
	it('"osc777" writes one desktop notification when the dialog opens, and the dialog still answers', async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "delete me");
		await writeScript(sb, scriptOf([bash("rm -f victim.txt")]));
		await writeUserConfig(sb, { notify: "osc777" });
		const output = path.join(sb.root, "terminal-output");
		const pi = [
			node22Binary(),
			PI_CLI,
			"-e",
			FAUX_MODEL_EXTENSION,
			"-e",
			EXTENSION_ENTRY,
			"--model",
			"faux/faux-1",
			"--no-session",
		]
			.map(quote)
			.join(" ");
		pane = TmuxPane.start({
			dir: sb.root,
			command: `cd ${quote(sb.workDir)} && script -qfec ${quote(pi)} ${quote(output)}`,
			cols: 120,
			rows: 40,
			env: sb.env(),
		});
		const terminal = pane;
		await waitForScreen(terminal, "pi's editor", (s) => (s.includes("faux-1") ? true : null), 60_000);
		// latin1 keeps every byte; the expected text is ASCII.
		const written = (): string => (existsSync(output) ? readFileSync(output, "latin1") : "");
		expect(written()).not.toContain("]777;");

		terminal.sendKeys("-l", "delete it");
		terminal.sendKeys("Enter");
		await waitForScreen(terminal, "the dialog", (s) => (s.includes("[Esc] dismiss") ? true : null));
		// The exact sequence, once: tool and tier, not the command (`victim.txt` is nowhere in it).
		await expect.poll(() => written().split(OSC777_IN_TMUX).length - 1, { timeout: 5_000 }).toBe(1);

		await answerAfterPause(terminal, "y");
		await expect.poll(() => existsSync(sb.workPath("victim.txt")), { timeout: 15_000 }).toBe(false);
		expect(written().split("]777;notify;").length - 1).toBe(1);
	}, 120_000);
});
