/**
 * `npm run demo -- --auto` end to end: the demo runner as a process, real pi (RPC) with the built extension, the
 * demo's scripted model and pi's example subagent launcher starting a real child pi. The test checks what the
 * demo prints, the files it leaves on disk, and the audit lines the gate wrote, so the demo cannot rot.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { COMMANDS, FILES, NOTES_CONTENT } from "../../demo/scenario.ts";
import { node22Binary, REPO_ROOT } from "../harness/paths.ts";
import { runCommand } from "../harness/run-command.ts";
import {
	DEMO_SCRIPT,
	demoAudit,
	demoEnvironment,
	removeScratch,
	runDemo,
	scratchDir,
} from "./demo-process.ts";

let scratch: string | undefined;
afterEach(async () => {
	await removeScratch(scratch);
	scratch = undefined;
});

/** The dialog headings and the answers the --auto transcript shows, in order. */
function dialogsIn(stdout: string): { heading: string; answer: string }[] {
	const headings = [...stdout.matchAll(/^ {2}┌ dialog \d+: (.+)$/gm)].map((m) => m[1] ?? "");
	const answers = [...stdout.matchAll(/^ {2}└ the demo answers: (.+)$/gm)].map((m) => m[1] ?? "");
	return headings.map((heading, i) => ({ heading, answer: answers[i] ?? "" }));
}

describe("node demo/run.ts --auto", () => {
	it("plays the four asks, keeps the denied folder, and shows the audit log and the CLI for the run", async () => {
		scratch = await scratchDir();
		const root = path.join(scratch, "demo");

		const run = await runDemo(["--auto", "--keep", root]);

		expect(run.code, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).toBe(0);
		expect(run.stdout).toContain(`Demo folder: ${root}`);
		expect(run.stdout).toContain("DEMO OK: 4 dialogs answered");
		expect(dialogsIn(run.stdout)).toEqual([
			{ heading: "Permission needed: write", answer: "Allow once" },
			{ heading: "Permission needed: subagent (spend)", answer: "Allow once" },
			{ heading: "Permission needed: bash (destructive)", answer: "Allow once" },
			{ heading: "Permission needed: bash (destructive)", answer: "Deny" },
		]);
		// The forwarded ask names who asks; the root's own asks do not.
		expect(run.stdout.match(/│ Requested by: subagent root ← cleaner$/gm)).toHaveLength(1);
		expect(run.stdout).toContain(`│ bash: ${COMMANDS.childRemove}\n  │ Tier: destructive`);
		expect(run.stdout).toContain(`[read ran] # A demo project`);

		// The files on disk are the decisions' visible results.
		const project = path.join(root, "project");
		expect(readFileSync(path.join(project, FILES.notes), "utf8")).toBe(NOTES_CONTENT);
		expect(existsSync(path.join(project, FILES.oldLog))).toBe(false);
		expect(existsSync(path.join(project, FILES.importantFile))).toBe(true);
		expect(run.stdout).toContain(`still there: the gate blocked \`${COMMANDS.rootRemove}\``);

		// The audit log: one line per decision, the forwarded one on both sides with the chain of who decided.
		const auditPath = path.join(root, "agent", "pi-permission-hub", "audit.jsonl");
		expect(run.stdout).toContain(`Audit log: ${auditPath} (6 lines`);
		const audit = demoAudit(root);
		const rows = audit.map((e) => [e.event, e.tool, e.tier, e.mode, e.outcome].join(" "));
		expect(rows.slice(0, 3)).toEqual([
			"tool_call read read auto allow",
			"tool_call write write ask allow",
			"tool_call subagent spend ask allow",
		]);
		// The two sides of the forwarded ask are written by two processes, in either order.
		expect(rows.slice(3, 5).sort()).toEqual([
			"forwarded_ask bash destructive ask allow",
			"tool_call bash destructive ask allow",
		]);
		expect(rows.slice(5)).toEqual(["tool_call bash destructive ask deny"]);
		const rootSession = audit[0]?.sessionId;
		const child = audit.find((e) => e.event === "tool_call" && e.sessionId !== rootSession);
		expect(child).toMatchObject({
			preview: COMMANDS.childRemove,
			origin: { kind: "subagent", name: "cleaner", path: ["root", "cleaner"] },
			source: {
				kind: "forwarded",
				responderSessionId: rootSession,
				decision: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
			},
		});
		expect(audit.find((e) => e.event === "forwarded_ask")).toMatchObject({
			sessionId: rootSession,
			actionHash: child?.actionHash,
			origin: { kind: "subagent", path: ["root", "cleaner"] },
		});
		expect(audit.at(-1)).toMatchObject({
			preview: COMMANDS.rootRemove,
			source: { kind: "user", verdict: "deny" },
		});

		// The operator CLI's view of the same run.
		expect(run.stdout).toContain(`$ pi-permission-hub sessions --agent-dir ${path.join(root, "agent")}`);
		expect(run.stdout).toContain("6 decisions in 2 origin groups");
		expect(run.stdout).toContain('subagent "cleaner"');
		expect(run.stdout).toContain(`$ pi-permission-hub explain "${COMMANDS.childRemove}"`);
		expect(run.stdout).toMatch(/decided by: forwarded\([0-9a-f]{8}…\) → user\(dialog, allow once\)/);
		expect(run.stdout).toContain("decided by: user(dialog, deny once)");
	});

	it("refuses a --keep folder that is not empty, and touches nothing in it", async () => {
		scratch = await scratchDir();
		const root = path.join(scratch, "busy");
		await mkdir(root);
		await writeFile(path.join(root, "mine.txt"), "not the demo's\n");

		const run = await runDemo(["--auto", "--keep", root]);

		expect(run.code).toBe(2);
		expect(run.stdout).toContain("the folder is not empty");
		expect(existsSync(path.join(root, "agent"))).toBe(false);
		expect(readFileSync(path.join(root, "mine.txt"), "utf8")).toBe("not the demo's\n");
	});

	it("without a terminal and without --auto, says how to run it instead of starting pi", async () => {
		const run = await runDemo([]);

		expect(run.code).toBe(2);
		expect(run.stdout).toContain("npm run demo -- --auto");
		expect(run.stdout).not.toContain("Demo folder:");
	});

	it("typed at a terminal but piped (`npm run demo | tee log`), refuses instead of running pi with no UI", async () => {
		// `script` gives the demo a terminal as its input; `| cat` makes its output a pipe, as `| tee` does.
		const line = `${shellQuoted(node22Binary())} ${shellQuoted(DEMO_SCRIPT)} | cat; exit "\${PIPESTATUS[0]}"`;
		const run = await runCommand("script", ["-qec", `bash -c ${shellQuoted(line)}`, "/dev/null"], {
			cwd: REPO_ROOT,
			env: demoEnvironment(),
			timeoutMs: 60_000,
		});

		expect(run.code).toBe(2);
		expect(run.stdout).toContain(
			"The interactive demo needs a terminal (its output goes to a pipe or a file here)",
		);
		expect(run.stdout).toContain("npm run demo -- --auto");
		expect(run.stdout).not.toContain("Demo folder:");
	});
});

function shellQuoted(word: string): string {
	return `'${word.replaceAll("'", "'\\''")}'`;
}
