/**
 * What the demo shows after pi exits: the project files as they are on disk now (each one is the visible result
 * of a decision), where the audit log is, and the operator CLI's `sessions` and `explain` for this run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import type { DemoWorld } from "./demo-world.ts";
import { HUB_CLI } from "./demo-world.ts";
import { COMMANDS, FILES, SUBAGENT_NAME } from "./scenario.ts";

export interface FileFact {
	readonly file: string;
	readonly present: boolean;
	/** True when the file is as the demo script plays it (allow, allow, allow, deny). */
	readonly asScripted: boolean;
	readonly text: string;
}

/** The files each step leaves behind, read from disk. */
function fileFacts(world: DemoWorld): FileFact[] {
	const present = (file: string) => existsSync(world.projectPath(file));
	const notes = present(FILES.notes);
	const oldLog = present(FILES.oldLog);
	const important = present(FILES.importantFile);
	return [
		{
			file: FILES.notes,
			present: notes,
			asScripted: notes,
			text: notes ? "written: the write was allowed" : "absent: the write was not allowed",
		},
		{
			file: FILES.oldLog,
			present: oldLog,
			asScripted: !oldLog,
			text: oldLog
				? `still there: the subagent's \`${COMMANDS.childRemove}\` did not run`
				: `removed by the "${SUBAGENT_NAME}" subagent, after you allowed its forwarded ask`,
		},
		{
			file: FILES.importantFile,
			present: important,
			asScripted: important,
			text: important
				? `still there: the gate blocked \`${COMMANDS.rootRemove}\``
				: `gone: \`${COMMANDS.rootRemove}\` was allowed`,
		},
	];
}

function auditLineCount(world: DemoWorld): number {
	if (!existsSync(world.auditLog)) return 0;
	return readFileSync(world.auditLog, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "").length;
}

interface CliRun {
	readonly command: string;
	readonly status: number | null;
	readonly output: string;
}

/** Runs the built `pi-permission-hub` CLI against the demo's agent dir. */
function runHubCli(world: DemoWorld, args: readonly string[]): CliRun {
	const argv = [...args, "--agent-dir", world.agentDir];
	const result = spawnSync(process.execPath, [HUB_CLI, ...argv], {
		cwd: world.projectDir,
		env: world.env(),
		encoding: "utf8",
		timeout: 30_000,
	});
	const shown = argv.map((arg) => (/^[\w./-]+$/.test(arg) ? arg : JSON.stringify(arg))).join(" ");
	return {
		command: `pi-permission-hub ${shown}`,
		status: result.status,
		output:
			`${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? result.error.message : ""}`.trimEnd(),
	};
}

/** The CLI runs the summary shows; the first `explain` follows the forwarded ask through both audit lines. */
const SUMMARY_CLI_RUNS: readonly (readonly string[])[] = [
	["sessions"],
	["explain", COMMANDS.childRemove],
	["explain", COMMANDS.rootRemove],
];

export function printSummary(world: DemoWorld, print: (line: string) => void): FileFact[] {
	const facts = fileFacts(world);
	print("");
	print(`What is on disk now, in ${world.projectDir}:`);
	for (const fact of facts) print(`  ${fact.asScripted ? "✓" : "•"} ${fact.file.padEnd(22)} ${fact.text}`);
	print("");
	print(`Audit log: ${world.auditLog} (${auditLineCount(world)} lines, one JSON object per decision)`);
	for (const args of SUMMARY_CLI_RUNS) {
		const run = runHubCli(world, args);
		print("");
		print(`$ ${run.command}`);
		print(run.output);
		if (run.status !== 0 && run.status !== null) print(`(exit code ${run.status})`);
	}
	print("");
	print(`The demo's files stay in ${world.root} (remove it when you are done).`);
	print("Next: the README's quick start installs the gate into your own pi.");
	return facts;
}
