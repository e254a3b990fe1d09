/**
 * pi's interactive terminal UI with the packed package installed as users install it, on the paths a root's
 * human takes for its subagents: the root is pi's TUI in a private tmux server, its children `pi --mode json -p`
 * processes its launcher starts with the root's session id (`PI_SUBAGENT_PARENT_SESSION`), loading the same
 * installed copy from the same settings. The test reads the root's screen: who asks, that a key pressed as a
 * forwarded dialog appears is not an answer (the key rule, adr/0030, or `twice`), the diff an edit would make,
 * the delegation guard's "add the gate and continue" chosen by its key, a long change paged with `d` on a
 * terminal where pi's fullscreen layout would cut a taller dialog, and a long forwarded edit on 80×24 with every
 * key on screen and a key pressed in the pause said to be ignored.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SHOWN_MS } from "../../src/authority/key-rule.ts";
import { writeUserConfig } from "../e2e/gate-support.ts";
import {
	auditNow,
	bashCall,
	childPid,
	childRun,
	conversation,
	type HubSandbox,
	LAUNCHER_FIXTURE,
	launch,
	promptConversation,
	unwrap,
	writeTree,
} from "../e2e/hub-support.ts";
import { delegate, GUARD_STEP, PI_SUBAGENTS_PACKAGE } from "../e2e/subagents-support.ts";
import { installedTuiSuite } from "../harness/installed-tui-suite.ts";
import { installIntoFolder, readSettings, runPi } from "../harness/packed-package.ts";
import { FAUX_MODEL_EXTENSION } from "../harness/paths.ts";
import { describeResult } from "../harness/run-command.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import { ANSWER_PAUSE_MS, answerAfterPause, type TmuxPane, waitForScreen } from "../harness/tmux-driver.ts";

/** The launcher fixture's labels for the children of the worlds here, whose pid files the cleanup reads. */
const LABELS = ["named", "unnamed", "long"] as const;

const childDirs: string[] = [];
// A child still waiting for its answer when the root went away: not the harness's own process.
const suite = installedTuiSuite("pph-installed-tui-fwd-", () => {
	for (const dir of childDirs.splice(0)) {
		for (const label of LABELS) {
			const file = path.join(dir, `${label}.pid`);
			if (!existsSync(file)) continue;
			try {
				process.kill(Number(readFileSync(file, "utf8")), "SIGKILL");
			} catch {
				// Already gone.
			}
		}
	}
});

const RM = "rm -f victim.txt";
const CONFIG = [
	"export const port = 3000;",
	"export const retries = 2;",
	"export const debug = false;",
	"",
].join("\n");
const EDIT = {
	tool: "edit",
	input: {
		path: "config.ts",
		edits: [{ oldText: "export const retries = 2;", newText: "export const retries = 5;" }],
	},
};

const BROKEN_DIALOG = /permission check for this .* call failed|Cannot find package/;

/** The last dialog on screen titled `title`, once fully drawn (its last line is the Esc key); else null. */
function dialogTitled(title: string) {
	return (screen: string): string | null => {
		if (BROKEN_DIALOG.test(screen)) throw new Error(`the gate could not show its dialog:\n${screen}`);
		const start = screen.lastIndexOf(`⚠ ${title}`);
		if (start < 0) return null;
		const dialog = screen.slice(start);
		return dialog.includes("[Esc]") ? dialog : null;
	};
}

/**
 * The package installed with npm into a folder, then `pi install <folder>`; every pi of the sandbox also loads
 * the scripted model and the launcher fixture from settings. The root's model launches a child named `reviewer`
 * that removes victim.txt, then an unnamed child that edits config.ts.
 */
async function forwardingWorld(): Promise<HubSandbox> {
	const world = await installedWorld();
	await world.sb.writeWorkFile("victim.txt", "keep me");
	await world.sb.writeWorkFile("config.ts", CONFIG);
	await writeTree(world.sb, [
		conversation("[reviewer]", [bashCall(RM)]),
		conversation("[editor]", [EDIT]),
		promptConversation(
			"delegate",
			[launch("named", "[reviewer] tidy up", { link: "subagent-session", name: "reviewer" })],
			[launch("unnamed", "[editor] raise the retries", { link: "subagent-session" })],
		),
	]);
	return world;
}

/** The installed package and the launcher fixture, in a sandbox whose model script the caller writes. */
async function installedWorld(): Promise<HubSandbox> {
	const sb = await suite.sandbox();
	const childDir = path.join(sb.root, "children");
	await mkdir(childDir);
	childDirs.push(childDir);
	const installed = await installIntoFolder(suite.packed().tarball, path.join(sb.root, "pi-packages"));
	const install = await runPi(sb, ["install", installed]);
	expect(install.code, describeResult("pi install <folder>", install)).toBe(0);
	const settings = await readSettings(sb);
	expect(settings.packages).toHaveLength(1);
	await sb.writeSettings({ ...settings, extensions: [FAUX_MODEL_EXTENSION, LAUNCHER_FIXTURE] });
	return { sb, childDir, env: { PPH_CHILD_DIR: childDir } };
}

/** pi's TUI in a pane (120 columns unless told) in the sandbox's work dir; resolves once its editor is on screen. */
function startTui(
	sb: Sandbox,
	env: Readonly<Record<string, string>> = {},
	rows = 50,
	cols = 120,
): Promise<TmuxPane> {
	return suite.startPi(sb, { env, rows, cols });
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A forwarded dialog, polled every 20 ms: a key sent as it is seen must land well inside the pause. */
function forwardedDialog(terminal: TmuxPane, title: string): Promise<string> {
	return waitForScreen(terminal, `the forwarded "${title}" dialog`, dialogTitled(title), 120_000, 20);
}

/** `y` in the open dialog (after a pause, past any arming): the child's rm runs and victim.txt goes. */
async function allowVictimRm(terminal: TmuxPane, world: HubSandbox): Promise<void> {
	await answerAfterPause(terminal, "y");
	await waitForScreen(
		terminal,
		"the child's rm to remove victim.txt",
		() => (existsSync(world.sb.workPath("victim.txt")) ? null : true),
		60_000,
	);
}

describe("asks forwarded from subagents to the installed package in pi's terminal UI", () => {
	it("names the asking child, ignores a key pressed as the dialog opens, and allows with y after the pause", async () => {
		const world = await forwardingWorld();
		const terminal = await startTui(world.sb, world.env);

		terminal.sendKeys("-l", "delegate the tidy-up");
		terminal.sendKeys("Enter");
		// The launcher is a read-only tool: the first dialog is the child's.
		const dialog = await forwardedDialog(terminal, "Permission needed: bash");
		const seenAt = Date.now();
		terminal.sendKeys("y");
		const sentAfter = Date.now() - seenAt;
		expect(dialog).toContain(`│ bash: ${RM}`);
		expect(dialog).toContain("│ Requested by: subagent root ← reviewer");
		// A forwarded ask offers the subagent and tree scopes, never "this session".
		expect(dialog).toContain("[a] Allow for this subagent:");
		expect(dialog).toContain("[t] Allow for the whole tree:");
		expect(dialog).not.toContain("[s] Allow for this session");

		// Past the pause, the dialog is still open and the child's call has not run: the early `y` was dropped.
		await sleep(ANSWER_PAUSE_MS);
		const still = dialogTitled("Permission needed: bash")(terminal.screen());
		expect(
			still,
			`the dialog closed on a key sent ${sentAfter} ms after it was seen, before it was ${SHOWN_MS} ms on screen`,
		).not.toBeNull();
		expect(existsSync(world.sb.workPath("victim.txt"))).toBe(true);

		await allowVictimRm(terminal, world);
		await waitForScreen(
			terminal,
			"the named child's result to reach the root's model",
			(s) => (s.includes("child named: exit 0") ? true : null),
			60_000,
		);
		const run = childRun(world, "named");
		expect(run.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);

		// The root's audit line: the human at the root's dialog decided, for the child named reviewer.
		await expect
			.poll(() => auditNow(world.sb).filter((e) => e.event === "forwarded_ask").length, { timeout: 10_000 })
			.toBe(1);
		const atRoot = auditNow(world.sb).find((e) => e.event === "forwarded_ask");
		expect(atRoot).toMatchObject({
			tool: "bash",
			preview: RM,
			outcome: "allow",
			requesterSessionId: run.sessionId,
			origin: { kind: "subagent", name: "reviewer", shown: ["root", "reviewer"] },
			source: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
		});
		// The child's own line: decided by its parent, whose human answered in the dialog.
		await expect
			.poll(() => auditNow(world.sb).find((e) => e.sessionId === run.sessionId && e.event === "tool_call"), {
				timeout: 10_000,
			})
			.toBeDefined();
		const childLine = auditNow(world.sb).find(
			(e) => e.sessionId === run.sessionId && e.event === "tool_call",
		);
		expect(childLine?.outcome).toBe("allow");
		const { responders, decided } = unwrap(childLine?.source ?? { kind: "unavailable", reason: "" });
		expect(responders).toEqual([atRoot?.sessionId]);
		expect(decided).toMatchObject({ kind: "user", via: "dialog", verdict: "allow" });

		// An unnamed child is shown by its pid; its edit shows the diff; n denies and the file stays as it was.
		terminal.sendKeys("-l", "delegate the edit");
		terminal.sendKeys("Enter");
		const edit = await forwardedDialog(terminal, "Permission needed: edit (write)");
		const unnamedPid = childPid(world, "unnamed");
		expect(unnamedPid).not.toBeNull();
		expect(edit).toContain(`│ Requested by: subagent root ← subagent #${unnamedPid}`);
		expect(edit).toContain("│ edit: config.ts: 1 edit, +1/-1 lines");
		expect(edit).toContain("│ Change: 1 line removed, 1 added");
		for (const row of [
			"│ @@ -1,3 +1,3 @@",
			"│  export const port = 3000;",
			"│ -export const retries = 2;",
			"│ +export const retries = 5;",
			"│  export const debug = false;",
		])
			expect(edit).toContain(row);
		await answerAfterPause(terminal, "n");
		await waitForScreen(
			terminal,
			"the unnamed child's result to reach the root's model",
			(s) => (s.includes("child unnamed: exit 0") ? true : null),
			60_000,
		);
		const unnamed = childRun(world, "unnamed");
		expect(unnamed.toolResults).toMatchObject([{ toolName: "edit", isError: true }]);
		expect(unnamed.toolResults[0]?.text).toContain("The user denied");
		expect(readFileSync(world.sb.workPath("config.ts"), "utf8")).toBe(CONFIG);
	}, 300_000);

	it("a long forwarded edit on an 80×24 terminal: every key stays on screen, and a key in the pause says it was ignored", async () => {
		const world = await installedWorld();
		const numbers = Array.from({ length: 40 }, (_, i) => `export const n${i + 1} = ${i + 1};`);
		await world.sb.writeWorkFile("numbers.ts", `${numbers.join("\n")}\n`);
		const oldText = numbers.slice(9, 29).join("\n");
		const newText = numbers
			.slice(9, 29)
			.map((line) => line.replace(/= (\d+);/, "= $1 * 10;"))
			.join("\n");
		await writeTree(world.sb, [
			conversation("[long-edit]", [
				{ tool: "edit", input: { path: "numbers.ts", edits: [{ oldText, newText }] } },
			]),
			promptConversation("delegate", [
				launch("long", "[long-edit] scale the numbers", { link: "subagent-session" }),
			]),
		]);
		const terminal = await startTui(world.sb, world.env, 24, 80);

		terminal.sendKeys("-l", "delegate the scaling");
		terminal.sendKeys("Enter");
		// As soon as the title is drawn: the key lands well inside the pause.
		await waitForScreen(
			terminal,
			"the forwarded edit dialog's title",
			(s) => (s.includes("⚠ Permission needed: edit") ? true : null),
			120_000,
			20,
		);
		terminal.sendKeys("n");
		const edit = dialogTitled("Permission needed: edit (write)");
		/** The dialog once its hint, every key and pi's footer below them are on screen: nothing was cut. */
		const whole = (screen: string) => {
			const dialog = edit(screen);
			const below = dialog?.slice(dialog.indexOf("[Esc]")) ?? "";
			if (!/Keys? ignored/.test(dialog ?? "") || !below.includes("faux-1")) return null;
			return dialog;
		};
		const hinted = await waitForScreen(
			terminal,
			"the whole dialog saying the key was ignored",
			whole,
			10_000,
		);
		for (const key of ["y", "a", "t", "n", "r", "x"]) expect(hinted).toMatch(new RegExp(`│ \\[${key}\\] `));
		expect(hinted).toMatch(/│ \[Esc\] dismiss \(counts as deny\)/);
		expect(hinted).toContain("│ Requested by: subagent root ← subagent #");
		expect(hinted).toMatch(/│ rows 1–\d+ of \d+ · \[d\] next rows/);

		// Past the pause the dialog is still open: the early n answered nothing. Now n denies.
		await sleep(ANSWER_PAUSE_MS);
		expect(whole(terminal.screen())).not.toBeNull();
		terminal.sendKeys("n");
		await waitForScreen(
			terminal,
			"the child's result to reach the root's model",
			(s) => (s.includes("child long: exit 0") ? true : null),
			60_000,
		);
		const run = childRun(world, "long");
		expect(run.toolResults).toMatchObject([{ toolName: "edit", isError: true }]);
		expect(run.toolResults[0]?.text).toContain("The user denied");
		expect(readFileSync(world.sb.workPath("numbers.ts"), "utf8")).toBe(`${numbers.join("\n")}\n`);
	}, 300_000);

	it("with forwardedDialogKeys twice: the first y only arms the answer and says so, the second allows", async () => {
		const world = await forwardingWorld();
		await writeUserConfig(world.sb, { forwardedDialogKeys: "twice" });
		const terminal = await startTui(world.sb, world.env);

		terminal.sendKeys("-l", "delegate the tidy-up");
		terminal.sendKeys("Enter");
		const dialog = await forwardedDialog(terminal, "Permission needed: bash");
		expect(dialog).toContain("│ Requested by: subagent root ← reviewer");
		await answerAfterPause(terminal, "y");
		await waitForScreen(terminal, "the dialog to ask for y again", (s) =>
			dialogTitled("Permission needed: bash")(s)?.includes("│ Press y again to answer: Allow once")
				? true
				: null,
		);
		expect(existsSync(world.sb.workPath("victim.txt"))).toBe(true);

		await allowVictimRm(terminal, world);
		await expect
			.poll(() => auditNow(world.sb).find((e) => e.event === "forwarded_ask"), { timeout: 10_000 })
			.toMatchObject({
				preview: RM,
				outcome: "allow",
				source: { kind: "user", via: "dialog", verdict: "allow" },
			});
	}, 300_000);

	it("a delegation whose children would run ungated: f adds the installed copy to the settings and the child asks", async () => {
		const sb = await suite.sandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		const installed = await installIntoFolder(suite.packed().tarball, path.join(sb.root, "pi-packages"));
		const install = await runPi(sb, ["install", installed]);
		expect(install.code, describeResult("pi install <folder>", install)).toBe(0);
		const { packages = [] } = await readSettings(sb);
		const before = {
			packages: [...packages, PI_SUBAGENTS_PACKAGE],
			extensions: [FAUX_MODEL_EXTENSION],
			subagents: { defaultExtensions: [FAUX_MODEL_EXTENSION] },
		};
		await sb.writeSettings(before);
		await writeTree(sb, [
			conversation("CHILD-TASK", [bashCall(RM)]),
			conversation(undefined, [delegate("delegate", "CHILD-TASK delete victim.txt")]),
		]);
		const terminal = await startTui(sb);

		terminal.sendKeys("-l", "delegate the clean-up");
		terminal.sendKeys("Enter");
		const settingsFile = path.join(sb.agentDir, "settings.json");
		const guard = await waitForScreen(
			terminal,
			"the delegation guard's dialog",
			dialogTitled("Permission needed: subagent"),
			120_000,
		);
		expect(guard).toContain(`│ [f] Add the gate to ${settingsFile} and continue`);
		// The settings change outlives the call: f arms it, Enter confirms it (adr/0030).
		await answerAfterPause(terminal, "f");
		await waitForScreen(terminal, "the guard to ask for Enter", (s) =>
			s.includes("Press Enter to confirm: Add the gate to") ? true : null,
		);
		await answerAfterPause(terminal, "Enter");

		const forwarded = await forwardedDialog(terminal, "Permission needed: bash");
		expect(forwarded).toContain(`│ bash: ${RM}`);
		expect(forwarded).toContain("│ Requested by: subagent root ← delegate");
		// What `f` wrote: the installed copy's directory appended to the children's extensions, the rest as it was
		// (pi itself records the changelog versions it has shown).
		expect(JSON.parse(readFileSync(settingsFile, "utf8"))).toMatchObject({
			...before,
			subagents: { defaultExtensions: [FAUX_MODEL_EXTENSION, realpathSync(installed)] },
		});
		await answerAfterPause(terminal, "n");
		await waitForScreen(
			terminal,
			"the notice that the gate was added",
			(s) => (s.includes(`pi-permission-hub: added the gate to ${settingsFile}`) ? true : null),
			120_000,
		);
		await expect
			.poll(() => auditNow(sb).some((e) => e.event === "forwarded_ask"), { timeout: 30_000 })
			.toBe(true);
		const entries = auditNow(sb);
		// The delegation went on by the human's choice; the child it started was gated and asked the root.
		expect(entries.find((e) => e.tool === "subagent")).toMatchObject({
			outcome: "allow",
			source: { kind: "user", via: "dialog", verdict: "allow" },
			chain: [{ link: GUARD_STEP, result: "defer" }],
		});
		expect(entries.find((e) => e.event === "forwarded_ask")).toMatchObject({
			preview: RM,
			outcome: "deny",
			source: { kind: "user", via: "dialog", verdict: "deny" },
		});
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
	}, 300_000);

	it("the root's own write of a long file on a 30-row terminal: keys stay on screen while d pages the change", async () => {
		const sb = await suite.sandbox();
		const installed = await installIntoFolder(suite.packed().tarball, path.join(sb.root, "pi-packages"));
		const install = await runPi(sb, ["install", installed]);
		expect(install.code, describeResult("pi install <folder>", install)).toBe(0);
		await sb.writeSettings({ ...(await readSettings(sb)), extensions: [FAUX_MODEL_EXTENSION] });
		const content = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n");
		await writeTree(sb, [conversation(undefined, [{ tool: "write", input: { path: "long.txt", content } }])]);
		const terminal = await startTui(sb, {}, 30);
		const write = dialogTitled("Permission needed: write");
		/** The page of the change on screen, once the whole dialog and pi's footer below it are. */
		const page = (screen: string) => {
			const dialog = write(screen);
			const pager =
				dialog && /│ rows (\d+)–(\d+) of (\d+) · \[d\] (next rows|back to the first rows)/.exec(dialog);
			// pi's footer (directory, model) below the Esc line: nothing of the dialog was cut off.
			const below = dialog?.slice(dialog.indexOf("[Esc]")) ?? "";
			if (!dialog || !pager || !below.includes(sb.workDir) || !below.includes("faux-1")) return null;
			return { dialog, from: Number(pager[1]), to: Number(pager[2]), of: Number(pager[3]), next: pager[4] };
		};

		terminal.sendKeys("-l", "write it");
		terminal.sendKeys("Enter");
		const first = await waitForScreen(terminal, "the write dialog, keys and footer on screen", page);
		expect(first.dialog).toContain("│ Change: new file, 470 bytes, 60 lines");
		expect(first.dialog).toContain("│ +line 1");
		expect(first.dialog).not.toContain("│ +line 60");
		expect(first).toMatchObject({ from: 1, next: "next rows" });

		const seen = new Set(first.dialog.split("\n"));
		let shown = first;
		while (shown.next === "next rows") {
			const after = shown.to;
			await answerAfterPause(terminal, "d");
			shown = await waitForScreen(terminal, `the rows after ${after}`, (s) => {
				const turned = page(s);
				return turned && turned.from === after + 1 ? turned : null;
			});
			for (const row of shown.dialog.split("\n")) seen.add(row);
		}
		expect(shown.to).toBe(shown.of);
		expect(seen).toContain("│ +line 60");
		await answerAfterPause(terminal, "d");
		await waitForScreen(terminal, "the first rows again", (s) => (page(s)?.from === 1 ? true : null));

		await answerAfterPause(terminal, "n");
		await waitForScreen(terminal, "the denial to reach the model", (s) =>
			s.includes("RESULTS: [") ? true : null,
		);
		expect(existsSync(sb.workPath("long.txt"))).toBe(false);
	}, 300_000);
});
