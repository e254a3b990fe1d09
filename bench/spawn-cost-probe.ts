/**
 * Run by figure 3 in a fresh process: `node bench/spawn-cost-probe.ts <extra MB>`. Makes `extra MB` of memory
 * resident, then times the synchronous part of spawning `bash -c true` (Node forks the process on Linux, so this
 * grows with resident memory). Prints `{ "spawnMs": median, "residentMb": … }`.
 */
import { spawn } from "node:child_process";
import { median } from "./stats.ts";

const extraMb = Number(process.argv[2] ?? "0");
const held = Array.from({ length: extraMb }, () => Buffer.alloc(1024 * 1024, 1));
const samples: number[] = [];
for (let i = 0; i < 40; i++) {
	const started = performance.now();
	const child = spawn("bash", ["-c", "true"], { stdio: "ignore" });
	samples.push(performance.now() - started);
	await new Promise((resolve) => child.once("exit", resolve));
}
process.stdout.write(
	`${JSON.stringify({ spawnMs: median(samples.slice(5)), residentMb: process.memoryUsage().rss / 1048576, held: held.length })}\n`,
);
