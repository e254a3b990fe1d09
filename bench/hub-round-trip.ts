/**
 * Figure 5: a forwarded ask that the parent decides without a human, seen from the child: forwardAsk called →
 * answer in hand. Real processes: a parent serving its inbox with HubServer (chokidar-woken, decide callback
 * allows at once) and child processes calling forwardAsk one ask at a time. Against it, the anchor's polling
 * transport, implemented here: the child writes the request, the parent lists the directory every 250 ms, the
 * child checks for the response every 250 ms.
 */
import { join } from "node:path";
import { type HubProc, stopAll } from "./hub-proc.ts";
import {
	askingChild,
	createHubWorld,
	outcomeTimes,
	pollingRoundTrips,
	startServingParent,
} from "./hub-world.ts";
import type { FigureResult } from "./report.ts";
import { summarize } from "./stats.ts";

const CHILDREN = 3;
const ASKS_PER_CHILD = 100;
const POLLING_ASKS = 12;

export async function hubRoundTripFigure(): Promise<FigureResult> {
	const world = createHubWorld();
	const procs: HubProc[] = [];
	try {
		const served = await startServingParent(world, procs);
		const { parent } = served;
		const hubMs: number[] = [];
		let failures = 0;
		for (let c = 0; c < CHILDREN; c++) {
			const child = askingChild(world, served, procs, c, ASKS_PER_CHILD);
			await child.waitFor("ready");
			child.send("go");
			await child.waitFor("done", 120_000);
			const times = outcomeTimes(child);
			hubMs.push(...times.ms);
			failures += times.failures + (ASKS_PER_CHILD - times.ms.length);
		}
		parent.endInput();
		await parent.waitFor("report");

		const polling = await pollingRoundTrips(join(world.agentDir, "polling-inbox"), procs, POLLING_ASKS);

		const hub = summarize(hubMs);
		const poll = summarize(polling.ms);
		return {
			figure: `5. Hub round trip, child's view (${CHILDREN} child processes × ${ASKS_PER_CHILD} sequential asks; parent allows at once)`,
			measurements: [
				{ label: "round trip median", value: hub.median, unit: "ms", target: { op: "<=", value: 5 } },
				{ label: "round trip p99", value: hub.p99, unit: "ms", target: { op: "<=", value: 25 } },
				{
					label: "ratio: 250 ms polling transport median / hub median",
					value: poll.median / hub.median,
					unit: "×",
					target: { op: ">=", value: 50 },
				},
				{
					label: "asks not answered with allow (hub + polling)",
					value: failures + polling.failures,
					unit: "",
					target: { op: "==", value: 0 },
				},
				{ label: "  polling transport round trip median", value: poll.median, unit: "ms" },
				{ label: "  polling transport round trip p99", value: poll.p99, unit: "ms" },
			],
			notes: [
				"child's view: from forwardAsk() being called (request written with write-file-atomic, response awaited with",
				"fs.watch) to the verified answer; parent: HubServer woken by chokidar, claim + decide + exclusive response file",
				`hub p90 ${hub.p90.toFixed(2)} ms, max ${hub.max.toFixed(1)} ms (the first ask of each child is cold); polling: ${POLLING_ASKS} asks, one child`,
			],
		};
	} finally {
		await stopAll(procs);
		world.cleanup();
	}
}
