/**
 * `npm run bench`: builds the extension, then prints every performance figure the project promises, each
 * number on one labelled line with its target and PASS/FAIL (INFO for figures that are only reported).
 * Exits 1 when any target is missed or a figure cannot be measured. `npm run bench -- 1 5` runs figures 1 and 5.
 * What each figure means and how it is measured: bench/README.md.
 */
import { availableParallelism, cpus, loadavg } from "node:os";
import { childGateCostFigure } from "./child-gate-cost.ts";
import { coldStartFigure } from "./cold-start.ts";
import { decisionLatencyFigure } from "./decision-latency.ts";
import { forwardedInPiFigure } from "./forwarded-in-pi.ts";
import { gateFilesFigure } from "./gate-files.ts";
import { gateLatencyFigure } from "./gate-latency.ts";
import { hostileInputsFigure } from "./hostile-inputs.ts";
import { hubFanInFigure } from "./hub-fan-in.ts";
import { hubRoundTripFigure } from "./hub-round-trip.ts";
import { idleRootFigure } from "./idle-root.ts";
import { loadCostFigure } from "./load-cost.ts";
import { readTierFigure } from "./read-tier.ts";
import { type FigureResult, failedFigure, printFigure, verdictOf } from "./report.ts";
import { sandboxCostFigure } from "./sandbox-cost.ts";

const FIGURES: readonly {
	readonly id: string;
	readonly name: string;
	readonly run: () => Promise<FigureResult>;
}[] = [
	{ id: "1", name: "1. Decision latency", run: decisionLatencyFigure },
	{ id: "2", name: "2. Cold start", run: coldStartFigure },
	{ id: "3", name: "3. Gate latency in real pi", run: gateLatencyFigure },
	{ id: "4", name: "4. Load cost on a whole short pi run", run: loadCostFigure },
	{ id: "5", name: "5. Hub round trip", run: hubRoundTripFigure },
	{ id: "6", name: "6. Fan-in", run: hubFanInFigure },
	{ id: "7", name: "7. Idle root", run: idleRootFigure },
	{ id: "8", name: "8. Read tier", run: readTierFigure },
	{ id: "9", name: "9. Hostile inputs outside the parser", run: hostileInputsFigure },
	{ id: "10", name: "10. Sandbox cost per command", run: sandboxCostFigure },
	{ id: "11", name: "11. Forwarded round trip in real pi", run: forwardedInPiFigure },
	{ id: "12", name: "12. The gate's cost on a subagent's run", run: childGateCostFigure },
	{ id: "13", name: "13. The gate's own files", run: gateFilesFigure },
];

const write = (line: string): void => {
	process.stdout.write(`${line}\n`);
};

const selected = process.argv.slice(2);
const chosen = selected.length === 0 ? FIGURES : FIGURES.filter((f) => selected.includes(f.id));
const started = performance.now();
const [load1, load5] = loadavg();
write(
	`pi-permission-hub bench — node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "?"}), ` +
		`load average ${load1?.toFixed(2)} (1 min) ${load5?.toFixed(2)} (5 min)`,
);
// `npm run bench` builds first; the build's own load lingers in the load average and inflates the p99s of the
// first figures. Give the machine up to 30 s to settle, and say so.
const settleStart = performance.now();
while ((loadavg()[0] ?? 0) > availableParallelism() / 2 && performance.now() - settleStart < 30_000) {
	await new Promise((resolve) => setTimeout(resolve, 2000));
}
if (performance.now() - settleStart > 1000) {
	write(
		`waited ${((performance.now() - settleStart) / 1000).toFixed(0)} s for the load to settle (now ${loadavg()[0]?.toFixed(2)})`,
	);
}
if ((loadavg()[0] ?? 0) > availableParallelism() / 2) {
	write("warning: the machine is busy; latency figures (especially p99) will be inflated by the other load");
}

let failures = 0;
let passes = 0;
for (const figure of chosen) {
	const figureStarted = performance.now();
	let result: FigureResult;
	try {
		result = await figure.run();
	} catch (error) {
		result = failedFigure(figure.name, error);
	}
	printFigure(result, write);
	write(`        (${((performance.now() - figureStarted) / 1000).toFixed(1)} s)`);
	for (const m of result.measurements) {
		const verdict = verdictOf(m);
		if (verdict === "FAIL") failures++;
		if (verdict === "PASS") passes++;
	}
}
write(
	`\n${failures === 0 ? "ALL TARGETS MET" : `${failures} TARGET(S) MISSED`}: ${passes} passed, ${failures} failed, ` +
		`in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
process.exitCode = failures === 0 ? 0 : 1;
