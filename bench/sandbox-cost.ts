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
import {
	findSocat,
	probeBubblewrap,
	type SandboxProfile,
	sandboxedCommand,
} from "../src/sandbox/bubblewrap.ts";
import { NetworkProxy } from "../src/sandbox/network-proxy.ts";
import type { FigureResult, Measurement } from "./report.ts";
import { summarize } from "./stats.ts";

const ROUNDS = 200;

/** The profiles, and the network one under `sandbox.network.allow` (its relay starts with every command). */
type Variant = SandboxProfile | "network, allowlist";
const VARIANTS: readonly Variant[] = ["read-only", "project-write", "network", "network, allowlist"];
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
	const probe = await probeBubblewrap();
	if (!probe.usable) throw new Error(`no sandbox can run here: ${probe.why}`);
	const socat = findSocat();
	if (socat === null) throw new Error("socat is not installed: the allowlist relay cannot run");
	const proxy = await NetworkProxy.start([["registry.npmjs.org"]]);
	const allowlist = { via: "proxy", proxySocket: proxy.socketPath, socat } as const;
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
			const added = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
			const plain: number[] = [];
			for (let round = 0; round < ROUNDS; round++) {
				const base = await timed(command.script, project);
				plain.push(base);
				for (const variant of VARIANTS) {
					const wrapped = sandboxedCommand(
						command.script,
						variant === "network, allowlist" ? "network" : variant,
						{ project, cwd: project, keepReadOnly: [] },
						probe,
						variant === "network, allowlist" ? allowlist : undefined,
					);
					added.get(variant)?.push((await timed(wrapped, project)) - base);
				}
			}
			notes.push(`${command.label} plain: median ${summarize(plain).median.toFixed(2)} ms`);
			for (const variant of VARIANTS) {
				const s = summarize(added.get(variant) ?? []);
				measurements.push({
					label: `${command.label}, ${variant}: added median`,
					value: s.median,
					unit: "ms",
					// The allowlist's relay is the price of a domain filter, asked for by name: no target.
					...(variant === "network, allowlist" ? {} : { target: { op: "<=", value: 10 } as const }),
				});
				measurements.push({ label: `${command.label}, ${variant}: added p99`, value: s.p99, unit: "ms" });
			}
		}
		notes.push(
			`${ROUNDS} interleaved rounds; bubblewrap at ${probe.path}; read-only and project-write with the seccomp filter; per-call difference to the plain run`,
		);
		return { figure: "10. Sandbox cost per command (bubblewrap, adr/0017)", measurements, notes };
	} finally {
		rmSync(project, { recursive: true, force: true });
		await proxy.close();
	}
}
