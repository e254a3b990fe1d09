/**
 * Figure 10: what the sandbox adds to one command (adr/0017). `echo` and `git status --short` in a real git
 * repository, each run through bash as pi's bash tool runs it, plain and inside each profile. A sandboxed call's
 * time includes what the gate does around it: wrapping the command (the writable profiles search the project for
 * the places to keep read-only) and, after a writable run, the search for places it made (created-places.ts).
 * `echo` in project-write is also timed in a project of 5,000 directories, where that search costs most. The
 * variants are interleaved in every round, so a load spike hits all of them alike, and the figure is the median
 * (and p99) of the paired differences: what one call pays for its sandbox.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	findSocat,
	probeBubblewrap,
	type SandboxProfile,
	sandboxedCommand,
} from "../src/sandbox/bubblewrap.ts";
import { type PlacesAtStart, placesCreatedSince } from "../src/sandbox/created-places.ts";
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

function run(script: string, cwd: string): Promise<void> {
	const child = spawn("/bin/bash", ["-c", script], { cwd, stdio: "ignore" });
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited ${code}`))));
	});
}

async function timed(script: string, cwd: string): Promise<number> {
	const started = performance.now();
	await run(script, cwd);
	return performance.now() - started;
}

/** One call as the gate runs it in `profile`: wrapped, run, and (writable) searched again afterwards. */
async function timedSandboxed(
	script: string,
	profile: SandboxProfile,
	project: string,
	probe: Parameters<typeof sandboxedCommand>[3],
	network?: Parameters<typeof sandboxedCommand>[4],
): Promise<number> {
	const started = performance.now();
	let start: PlacesAtStart | undefined;
	const wrapped = sandboxedCommand(
		script,
		profile,
		{ project, cwd: project, keepReadOnly: [] },
		probe,
		network,
		(found) => {
			start = found;
		},
	);
	await run(wrapped, project);
	if (start !== undefined && placesCreatedSince(start).length > 0)
		throw new Error(`${script} made a protected place`);
	return performance.now() - started;
}

/** A git repository of 5,000 directories (50 × 100), each with a file. */
function largeProject(): string {
	const project = mkdtempSync(join(tmpdir(), "pph-bench-sandbox-large-"));
	spawnSync("git", ["-C", project, "init", "-q"]);
	for (let outer = 0; outer < 50; outer++) {
		for (let inner = 0; inner < 100; inner++) {
			const directory = join(project, `d${outer}`, `e${inner}`);
			mkdirSync(directory, { recursive: true });
			writeFileSync(join(directory, "f.txt"), "x\n");
		}
	}
	return project;
}

export async function sandboxCostFigure(): Promise<FigureResult> {
	const probe = await probeBubblewrap();
	if (!probe.usable) throw new Error(`no sandbox can run here: ${probe.why}`);
	const socat = findSocat();
	if (socat === null) throw new Error("socat is not installed: the allowlist relay cannot run");
	const proxy = await NetworkProxy.start([["registry.npmjs.org"]]);
	const allowlist = { via: "proxy", proxySocket: proxy.socketPath, socat } as const;
	const project = mkdtempSync(join(tmpdir(), "pph-bench-sandbox-"));
	const large = largeProject();
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
			const largeAdded: number[] = [];
			const plain: number[] = [];
			for (let round = 0; round < ROUNDS; round++) {
				const base = await timed(command.script, project);
				plain.push(base);
				for (const variant of VARIANTS) {
					const profile = variant === "network, allowlist" ? "network" : variant;
					const network = variant === "network, allowlist" ? allowlist : undefined;
					added
						.get(variant)
						?.push((await timedSandboxed(command.script, profile, project, probe, network)) - base);
				}
				if (command.label === "echo") {
					const largeBase = await timed(command.script, large);
					largeAdded.push((await timedSandboxed(command.script, "project-write", large, probe)) - largeBase);
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
			if (largeAdded.length > 0) {
				const s = summarize(largeAdded);
				const label = `${command.label}, project-write, 5,000 directories`;
				measurements.push({
					label: `${label}: added median`,
					value: s.median,
					unit: "ms",
					target: { op: "<=", value: 10 },
				});
				measurements.push({ label: `${label}: added p99`, value: s.p99, unit: "ms" });
			}
		}
		notes.push(
			`${ROUNDS} interleaved rounds; bubblewrap at ${probe.path}; read-only and project-write with the seccomp filter; per-call difference to the plain run`,
		);
		return { figure: "10. Sandbox cost per command (bubblewrap, adr/0017)", measurements, notes };
	} finally {
		rmSync(project, { recursive: true, force: true });
		rmSync(large, { recursive: true, force: true });
		await proxy.close();
	}
}
