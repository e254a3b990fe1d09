/**
 * The start-up offer of asks parked in earlier runs, in pi's real terminal UI (issue 26, adr/0030): a person who
 * starts typing their first prompt as pi starts, through the moment the offer shows, answers nothing — no review
 * opens, nothing is allowed — and their text reaches pi's editor. `l` after a pause puts the asks off, and the
 * offer says how to see them.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { TYPING_NOTICE } from "../../src/authority/tui-dialog.ts";
import { parkedId } from "../cli/cli-support.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, node22Binary, PI_CLI } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import { answerAfterPause, findTmux, TmuxPane, waitForScreen } from "../harness/tmux-driver.ts";
import { bash, cleanupSandboxes, gateSandbox, scriptOf } from "./gate-support.ts";

let pane: TmuxPane | undefined;

beforeAll(() => {
	if (findTmux() === null) {
		throw new Error(
			"tmux is not installed (Debian: apt-get install tmux): the parked-offer TUI test cannot run",
		);
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `v` reviews, `l` puts off, `y` would allow the first parked ask once its dialog opened. */
const SENTENCE = "yes very good, look at the logs and leave the rest";
const TITLE = "parked in earlier runs of this project";

describe("the parked-asks offer in pi's terminal UI", () => {
	it("takes no key typed as pi starts; l after a pause puts the asks off; the typed prompt reaches the editor", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("a.txt", "keep me");
		await writeScript(sb, scriptOf([bash("rm -f a.txt")]));
		const run = await runPrint({
			sandbox: sb,
			prompt: "clean up",
			extensions: [EXTENSION_ENTRY],
			mode: "json",
		});
		const id = parkedId(run.toolResults[0]?.text ?? "");
		await writeScript(sb, { conversations: [{ turns: [{ text: "nothing to do" }] }] });
		const parked = () => readdirSync(path.join(sb.agentDir, "pi-permission-hub", "parked"));
		expect(parked()).toEqual([`${id}.request.json`]);

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
			command: `cd ${quote(sb.workDir)} && ${pi}; echo "pi exit status: $?"`,
			cols: 120,
			rows: 40,
			env: sb.env(),
		});
		const terminal = pane;
		await waitForScreen(terminal, "pi's editor", (s) => (s.includes("faux-1") ? true : null), 60_000);
		// The person starts typing as soon as pi's editor shows, and goes on through the offer's opening.
		let keysAfterOffer = 0;
		for (const key of SENTENCE) {
			const at = Date.now();
			terminal.sendKeys("-l", key);
			if (keysAfterOffer > 0 || terminal.screen().includes(TITLE)) keysAfterOffer++;
			await sleep(Math.max(0, 150 - (Date.now() - at)));
		}
		const offer = await waitForScreen(terminal, "the offer saying it ignored the typing", (s) =>
			s.includes(TITLE) && s.includes(TYPING_NOTICE.slice(0, 60)) ? s : null,
		);
		expect(keysAfterOffer, "the offer was open for the sentence's last keys").toBeGreaterThan(3);
		expect(offer).toContain("[v] Review them now (one dialog each)");
		expect(offer).toContain("pi-permission-hub pending lists them");
		// No review opened, nothing ran, the ask is still parked.
		expect(offer).not.toContain("Parked in an earlier run:");
		expect(existsSync(sb.workPath("a.txt"))).toBe(true);
		expect(parked()).toEqual([`${id}.request.json`]);

		await answerAfterPause(terminal, "l");
		const editor = await waitForScreen(terminal, "the typed prompt in pi's editor", (s) =>
			!s.includes(TITLE) && s.includes(SENTENCE) ? s : null,
		);
		expect(editor).not.toContain("Parked in an earlier run:");
		expect(parked()).toEqual([`${id}.request.json`]);
		expect(existsSync(sb.workPath("a.txt"))).toBe(true);
	}, 180_000);
});
