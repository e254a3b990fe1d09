/**
 * The file tools race (adr/0014), from the attacker's side, in real pi: in one assistant message an `edit` of a
 * big file and a command that swaps the file for a link to `~/.bashrc` while the edit computes its diff. Both
 * calls are allowed without a human (`accept-edits` for the edit, an allow rule for the command, as a user would
 * set them); pi runs them side by side. The swap waits until the edit has read the file (its access time moves),
 * so it lands between the edit's read and its write in every run.
 */
import { readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pickOption } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, REPO_ROOT } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import { startRpc } from "../harness/rpc-session.ts";
import {
	auditEntries,
	auditLines,
	bash,
	gateSandbox,
	scriptOf,
	stopRpcAndCleanUp,
	writeUserConfig,
} from "./gate-support.ts";

/** Another extension's `write` and `edit`, registered before the gate's: pi runs those. */
const FOREIGN_FILE_TOOLS = path.join(REPO_ROOT, "test", "fixtures", "foreign-file-tools-extension.ts");

afterEach(stopRpcAndCleanUp);

/** Runs of the race; each is a pi start and one edit of a file big enough that its diff takes a while. */
const RUNS = Number(process.env.PPH_RACE_RUNS ?? 10);
const EXTENSION = process.env.PPH_RACE_EXTENSION ?? EXTENSION_ENTRY;

const BASHRC = "# the user's start-up file\nalias ls='ls --color'\n";

/**
 * The attacker's script: once the edit has read the file (its access time moves off 1000), put a link to
 * ~/.bashrc in its place — unless the edit has written it already (its change time moved off 2000: on a machine
 * this busy the script started too late, and says so).
 */
const SWAP = `import os, sys, time
target = sys.argv[1]
deadline = time.time() + 20
while os.stat(target).st_atime < 3000 and time.time() < deadline:
    time.sleep(0.001)
if os.stat(target).st_mtime != 2000:
    print("late")
    sys.exit(0)
os.symlink(os.path.expanduser("~/.bashrc"), target + ".tmp")
os.rename(target + ".tmp", target)
print("swapped")
`;

function bigFile(): string {
	const lines = Array.from({ length: 400_000 }, (_, i) => `line ${i} of a file long enough to diff slowly`);
	lines[200_000] = "MARKER";
	return `${lines.join("\n")}\n`;
}

/** The two ways a user lets the edit run unasked: the mode, or a write rule as docs/configuration.md shows one. */
const SETUPS = [
	{
		name: "accept-edits",
		file: "big.txt",
		args: ["--permission-mode", "accept-edits"],
		rules: [],
		runs: RUNS,
	},
	{
		name: "the default mode with a `write src/**` allow rule",
		file: "src/big.txt",
		args: [],
		rules: [{ surface: "write", pattern: "src/**", action: "allow" }],
		runs: Math.max(1, Math.ceil(RUNS / 2)),
	},
] as const;

describe("the edit tool cannot be redirected by a link swapped in after the gate's check", () => {
	for (const setup of SETUPS) {
		it(
			`${setup.name}, ${setup.runs} runs: the edit fails and ~/.bashrc is never written`,
			async () => {
				const sb = await gateSandbox();
				const bashrc = path.join(sb.home, ".bashrc");
				writeFileSync(bashrc, BASHRC);
				await writeUserConfig(sb, {
					rules: [{ surface: "command", pattern: "python3 swap.py *", action: "allow" }, ...setup.rules],
				});
				await sb.writeWorkFile("swap.py", SWAP);
				const edit = {
					tool: "edit",
					input: { path: setup.file, edits: [{ oldText: "MARKER", newText: "EDITED" }] },
				};
				await writeScript(sb, {
					conversations: [
						{ turns: [{ calls: [bash(`python3 swap.py ${setup.file}`), edit] }, { echo: true }] },
					],
				});
				const content = bigFile();
				const target = sb.workPath(setup.file);
				let redirected = 0;
				let refused = 0;
				let late = 0;
				for (let run = 0; run < setup.runs; run++) {
					// The last run left a link here: writing through it would write ~/.bashrc.
					rmSync(target, { force: true });
					await sb.writeWorkFile(setup.file, content);
					// relatime moves the access time on the first read after a change: the swap's cue.
					utimesSync(target, new Date(1_000_000), new Date(2_000_000));
					const result = await runPrint({
						sandbox: sb,
						prompt: "edit the big file",
						extensions: [EXTENSION],
						args: [...setup.args],
						mode: "json",
						timeoutMs: 90_000,
					});
					const swap = result.toolResults.find((r) => r.toolName === "bash");
					const edited = result.toolResults.find((r) => r.toolName === "edit");
					if (process.env.PPH_RACE_DEBUG)
						console.log(swap?.text, edited?.isError, edited?.text.slice(0, 300));
					expect(swap?.text, "the swap ran unasked").toMatch(/swapped|late/);
					if (swap?.text.includes("late")) late++;
					if (readFileSync(bashrc, "utf8") !== BASHRC) {
						redirected++;
						writeFileSync(bashrc, BASHRC);
					}
					if (edited?.isError === true && edited.text.includes("no longer what the gate checked")) refused++;
				}
				// Every swap that landed between the edit's read and its write made the edit fail; none redirected it.
				expect({ redirected, refused }).toEqual({ redirected: 0, refused: setup.runs - late });
				expect(late, "most swaps land in the window").toBeLessThan(Math.max(1, setup.runs / 2));
				// The edit's audit line names the file it opens: the real path the gate checked.
				const editLine = auditLines(sb)
					.map((line) => JSON.parse(line) as { tool: string; file?: string })
					.find((entry) => entry.tool === "edit");
				expect(editLine?.file).toBe(target);
			},
			setup.runs * 60_000,
		);
	}

	it("when another extension's write tool runs, accept-edits asks for a write instead of running it, and says why", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, scriptOf([{ tool: "write", input: { path: "notes.txt", content: "hello\n" } }]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [FOREIGN_FILE_TOOLS, EXTENSION],
			args: ["--permission-mode", "accept-edits"],
			dialog: pickOption("Allow once"),
		});

		const run = await rpc.prompt("write notes");

		expect(run.dialogs).toHaveLength(1);
		const why = `another extension's write tool (${FOREIGN_FILE_TOOLS}) runs it, not the gate's`;
		expect(JSON.stringify(run.dialogs[0]?.request)).toContain(why);
		// The human approved it: it ran, through the other tool.
		expect(readFileSync(sb.workPath("notes.txt"), "utf8")).toBe("hello\n");
		expect(rpc.statuses.get("pi-permission-hub")).toContain(`write and edit ask: ${why}`);
		const [entry] = await auditEntries(sb, 1);
		expect([entry?.outcome, entry?.source.kind, entry?.file]).toEqual(["allow", "user", undefined]);
	});
});
