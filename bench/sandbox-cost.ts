/**
 * Figure 10: what the sandbox adds to one command (adr/0017). `echo` and `git status --short` in a real git
 * repository, each run through bash as pi's bash tool runs it, plain and inside each profile. A sandboxed call's
 * time includes what the gate does around it: wrapping the command (the writable profiles search the project for
 * the places to keep read-only) and, after a writable run, the search for places it made (created-places.ts).
 * `echo` in project-write is also timed in a project of 5,000 directories, where that search costs most. The
 * variants are interleaved in every round, so a load spike hits all of them alike. What one call pays for its
 * sandbox is the paired difference to the same command run plain; the targets compare it with a plain `bash -c`
 * start timed in the same rounds: at most 1.5× its median, 3× its p99.
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
import { DirectoryListings } from "../src/sandbox/directory-listings.ts";
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

/** The directory listings one session keeps between its calls' searches, as the gate's sandboxing does. */
const SESSION_LISTINGS = new DirectoryListings();

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
		{ project, cwd: project, keepReadOnly: [], listings: SESSION_LISTINGS },
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
		// What the ratios are taken against: a plain `bash -c` start, timed in every round of both commands.
		const starts: number[] = [];
		/** The figure's lines for one series of added times: both ratios to the plain start, and the added median. */
		const lines = (label: string, added: readonly number[], targets: boolean): Measurement[] => {
			const s = summarize(added);
			const start = summarize(starts);
			return [
				{
					label: `${label}: added / bash -c start, median`,
					value: s.median / start.median,
					unit: "×",
					...(targets ? { target: { op: "<=", value: 1.5 } as const } : {}),
				},
				{
					label: `${label}: added / bash -c start, p99`,
					value: s.p99 / start.p99,
					unit: "×",
					...(targets ? { target: { op: "<=", value: 3 } as const } : {}),
				},
				{ label: `${label}: added median (p99 ${s.p99.toFixed(1)} ms)`, value: s.median, unit: "ms" },
			];
		};
		for (const command of COMMANDS) {
			const added = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
			const largeAdded: number[] = [];
			const plain: number[] = [];
			for (let round = 0; round < ROUNDS; round++) {
				starts.push(await timed("echo hi", project));
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
				// The allowlist's relay is the price of a domain filter, asked for by name: no target.
				measurements.push(
					...lines(
						`${command.label}, ${variant}`,
						added.get(variant) ?? [],
						variant !== "network, allowlist",
					),
				);
			}
			if (largeAdded.length > 0) {
				measurements.push(...lines(`${command.label}, project-write, 5,000 directories`, largeAdded, true));
			}
		}
		const start = summarize(starts);
		notes.push(
			`${ROUNDS} interleaved rounds per command; bubblewrap at ${probe.path}; read-only and project-write with the seccomp filter; added = the sandboxed call minus the same command plain in that round; bash -c start (echo hi) median ${start.median.toFixed(2)} ms, p99 ${start.p99.toFixed(2)} ms`,
		);
		return { figure: "10. Sandbox cost per command (bubblewrap, adr/0017)", measurements, notes };
	} finally {
		rmSync(project, { recursive: true, force: true });
		rmSync(large, { recursive: true, force: true });
		await proxy.close();
	}
}
