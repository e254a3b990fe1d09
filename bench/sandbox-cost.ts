/**
 * Figure 10: what the sandbox adds to one command (adr/0017). `echo` and `git status --short` in a real git
 * repository, each run through bash as pi's bash tool runs it, plain and inside each profile. The variants are
 * interleaved in every round, so a load spike hits all of them alike, and the figure is the median (and p99)
 * of the paired differences: what one call pays for its sandbox.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeBubblewrap, type SandboxProfile, sandboxedCommand } from "../src/sandbox/bubblewrap.ts";
import type { FigureResult, Measurement } from "./report.ts";
import { summarize } from "./stats.ts";

const ROUNDS = 200;
const PROFILES: readonly SandboxProfile[] = ["read-only", "project-write", "network"];
const COMMANDS = [
	{ label: "echo", script: "echo hi" },
	{ label: "git status", script: "git status --short" },
];

function timed(script: string, cwd: string): Promise<number> {
	const started = performance.now();
	const child = spawn("/bin/bash", ["-c", script], { cwd, stdio: "ignore" });
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) =>
			code === 0 ? resolve(performance.now() - started) : reject(new Error(`${script} exited ${code}`)),
		);
	});
}

export async function sandboxCostFigure(): Promise<FigureResult> {
	const probe = probeBubblewrap();
	if (!probe.usable) throw new Error(`no sandbox can run here: ${probe.why}`);
	const project = mkdtempSync(join(tmpdir(), "pph-bench-sandbox-"));
	try {
		writeFileSync(join(project, "README.md"), "# bench\n");
		for (const args of [
			["init", "-q"],
			["add", "README.md"],
			["-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "init"],
		]) {
			spawnSync("git", ["-C", project, ...args]);
		}
		const measurements: Measurement[] = [];
		const notes: string[] = [];
		for (const command of COMMANDS) {
			const added = new Map<SandboxProfile, number[]>(PROFILES.map((p) => [p, []]));
			const plain: number[] = [];
			for (let round = 0; round < ROUNDS; round++) {
				const base = await timed(command.script, project);
				plain.push(base);
				for (const profile of PROFILES) {
					const wrapped = sandboxedCommand(
						command.script,
						profile,
						{ project, cwd: project, keepReadOnly: [] },
						probe,
					);
					added.get(profile)?.push((await timed(wrapped, project)) - base);
				}
			}
			notes.push(`${command.label} plain: median ${summarize(plain).median.toFixed(2)} ms`);
			for (const profile of PROFILES) {
				const s = summarize(added.get(profile) ?? []);
				measurements.push({
					label: `${command.label}, ${profile}: added median`,
					value: s.median,
					unit: "ms",
					target: { op: "<=", value: 10 },
				});
				measurements.push({ label: `${command.label}, ${profile}: added p99`, value: s.p99, unit: "ms" });
			}
		}
		notes.push(
			`${ROUNDS} interleaved rounds; bubblewrap at ${probe.path}; per-call difference to the plain run`,
		);
		return { figure: "10. Sandbox cost per command (bubblewrap, adr/0017)", measurements, notes };
	} finally {
		rmSync(project, { recursive: true, force: true });
	}
}
