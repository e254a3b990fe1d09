/**
 * The packed package, installed the ways users install it, in pi's interactive terminal UI: the inline dialog
 * appears, `y` allows the call and `n` denies the next one, and a read that runs unasked runs in the OS sandbox
 * (a planted program writes nothing). Installed copies have none of pi's packages in their
 * own node_modules (npm and pi install extensions with `--legacy-peer-deps`), so anything the gate takes from pi
 * must come through pi; the checkout, where they are dev dependencies, cannot show that.
 *
 * Each layout runs in a private tmux server (a system package, installed by `.ci/run`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAuditLine } from "../../src/audit/audit-entry.ts";
import { writeScript } from "../harness/faux-script.ts";
import { installedTuiSuite } from "../harness/installed-tui-suite.ts";
import { addFauxModel, installAsPiPackage, installIntoFolder, runPi } from "../harness/packed-package.ts";
import { describeResult } from "../harness/run-command.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import { answerAfterPause, waitForScreen } from "../harness/tmux-driver.ts";

const suite = installedTuiSuite("pph-installed-tui-");

/** The block reason a gate that cannot show its dialog gives; seeing it means the dialog is broken. */
/** A read, rightly so; the repository's config plants a program on it, and only the sandbox stops its write. */
const ESCAPE = "git status --short";

const BROKEN_DIALOG = /permission check for this bash call failed|Cannot find package/;

/** The gate's inline dialog for `command`, fully drawn (its last line is the Esc key). */
function dialogFor(command: string) {
	return (screen: string): string | null => {
		if (BROKEN_DIALOG.test(screen)) throw new Error(`the gate could not show its dialog:\n${screen}`);
		const start = screen.lastIndexOf("⚠ Permission needed: bash");
		if (start < 0) return null;
		const dialog = screen.slice(start);
		return dialog.includes(`│ bash: ${command}`) && dialog.includes("[Esc]") ? dialog : null;
	};
}

/**
 * A sandbox whose model touches `allowed.txt` on the first prompt, `denied.txt` on the second, and on the third
 * tries to write outside the project with a command that runs unasked (a read) — the OS sandbox stops it.
 */
async function tuiSandbox(): Promise<Sandbox> {
	const sb = await suite.sandbox();
	const git = (...args: string[]) => execFileSync("git", ["-C", sb.workDir, ...args]);
	git("init", "-q");
	const monitor = path.join(sb.workDir, ".git", "monitor.sh");
	writeFileSync(monitor, `#!/bin/sh\ntouch '${sb.workPath("escaped.txt")}'\n`, { mode: 0o755 });
	git("config", "core.fsmonitor", monitor);
	await writeScript(sb, {
		conversations: [
			{
				turns: [
					{ calls: [{ tool: "bash", input: { command: "touch allowed.txt" } }] },
					{ echo: true },
					{ calls: [{ tool: "bash", input: { command: "touch denied.txt" } }] },
					{ echo: true },
					{ calls: [{ tool: "bash", input: { command: ESCAPE } }] },
					{ echo: true },
				],
			},
		],
	});
	return sb;
}

async function answerInTui(sb: Sandbox): Promise<void> {
	const terminal = await suite.startPi(sb, { args: ["--no-session"] });

	terminal.sendKeys("-l", "make a file");
	terminal.sendKeys("Enter");
	const first = await waitForScreen(
		terminal,
		"the dialog for touch allowed.txt",
		dialogFor("touch allowed.txt"),
	);
	expect(first).toContain("[y] Allow once");
	expect(first).toContain("[n] Deny");
	// The keys that save a rule (adr/0018) are there in the installed package too.
	expect(first).toContain("[p] Always allow in");
	expect(first).toContain("[x] Always deny in");
	await answerAfterPause(terminal, "y");
	await waitForScreen(terminal, "allowed.txt to be created", () =>
		existsSync(sb.workPath("allowed.txt")) ? true : null,
	);

	terminal.sendKeys("-l", "make another");
	terminal.sendKeys("Enter");
	await waitForScreen(terminal, "the dialog for touch denied.txt", dialogFor("touch denied.txt"));
	await answerAfterPause(terminal, "n");
	await waitForScreen(terminal, "the second answer to reach the model", (s) =>
		s.split("RESULTS: [").length > 2 ? true : null,
	);
	expect(existsSync(sb.workPath("denied.txt"))).toBe(false);

	// A read runs without a dialog, in the read-only sandbox: what it tries to write is not written.
	terminal.sendKeys("-l", "look around");
	terminal.sendKeys("Enter");
	await waitForScreen(terminal, "the third answer to reach the model", (s) =>
		s.split("RESULTS: [").length > 3 ? true : null,
	);
	expect(existsSync(sb.workPath("escaped.txt"))).toBe(false);

	// Alt+M, the shortcut the installed package registers, switches the permission mode (adr/0023).
	terminal.sendKeys("M-m");
	await waitForScreen(terminal, "the status line to show accept-edits mode", (s) =>
		s.includes("accept-edits mode") ? true : null,
	);

	const auditFile = path.join(sb.agentDir, "pi-permission-hub", "audit.jsonl");
	const audit = () =>
		readFileSync(auditFile, "utf8")
			.split("\n")
			.filter((line) => line.trim() !== "")
			.map((line) => parseAuditLine(line));
	await expect.poll(() => audit().length).toBe(3);
	expect(audit()).toMatchObject([
		{
			preview: "touch allowed.txt",
			outcome: "allow",
			source: { kind: "user", via: "dialog", verdict: "allow" },
			// Approved by the human: run as approved, through the copy of pi's bash tool the gate registers.
			sandbox: "none",
		},
		{
			preview: "touch denied.txt",
			outcome: "deny",
			source: { kind: "user", via: "dialog", verdict: "deny" },
		},
		{ tier: "read", mode: "auto", outcome: "allow", sandbox: "read-only" },
	]);
}

describe("the installed package in pi's terminal UI", () => {
	it("installed with npm into a folder, then `pi install <folder>`: y allows, n denies", async () => {
		const sb = await tuiSandbox();
		const installed = await installIntoFolder(suite.packed().tarball, path.join(sb.root, "pi-packages"));
		expect(existsSync(path.join(installed, "..", "@earendil-works"))).toBe(false);
		const install = await runPi(sb, ["install", installed]);
		expect(install.code, describeResult("pi install <folder>", install)).toBe(0);
		await addFauxModel(sb);
		await answerInTui(sb);
	}, 240_000);

	it("installed by pi's package manager as `npm:pi-permission-hub`: y allows, n denies", async () => {
		const sb = await tuiSandbox();
		const installed = await installAsPiPackage(sb, suite.packed().tarball);
		expect(existsSync(path.join(installed, "..", "@earendil-works"))).toBe(false);
		await addFauxModel(sb);
		await answerInTui(sb);
	}, 240_000);
});
