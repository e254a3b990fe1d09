/**
 * Figure 6: fan-in. 32 child processes × 50 asks each (one outstanding per child, all children at once after a
 * common start signal) against one serving parent. Every ask must be answered exactly once: the parent's decide
 * callback counts calls per request id, the server reports a second answer to the same request ("already
 * answered"), and every child checks each answer echoes its request id and action hash.
 */
import { type HubProc, stopAll } from "./hub-proc.ts";
import { askingChild, createHubWorld, startServingParent } from "./hub-world.ts";
import type { FigureResult } from "./report.ts";
import { summarize } from "./stats.ts";

const CHILDREN = 32;
const ASKS_PER_CHILD = 50;

export async function hubFanInFigure(): Promise<FigureResult> {
	const world = createHubWorld();
	const procs: HubProc[] = [];
	try {
		const served = await startServingParent(world, procs);
		const { parent } = served;
		const children = Array.from({ length: CHILDREN }, (_, c) =>
			askingChild(world, served, procs, c, ASKS_PER_CHILD),
		);
		await Promise.all(children.map((c) => c.waitFor("ready")));
		const started = performance.now();
		for (const child of children) child.send("go");
		await Promise.all(children.map((c) => c.waitFor("done", 180_000)));
		const wallMs = performance.now() - started;
		// The last removals reach the parent through its watcher; give them a moment before it lists leftovers.
		await new Promise((resolve) => setTimeout(resolve, 500));
		parent.endInput();
		const report = await parent.waitFor("report");

		const asked = CHILDREN * ASKS_PER_CHILD;
		const outcomes = children.flatMap((c) => c.records.filter((r) => r.event === "outcome"));
		const answered = outcomes.filter(
			(r) => r.kind === "answered" && r.decision === "allow" && r.echoedId === r.id && r.echoedHash === true,
		);
		const askedIds = new Set(outcomes.map((r) => String(r.id)));
		const decided = new Map<string, number>();
		if (Array.isArray(report.decided)) {
			for (const entry of report.decided) {
				if (Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "number")
					decided.set(entry[0], entry[1]);
			}
		}
		const decidedTwice = [...decided.values()].filter((n) => n > 1).length;
		const decidedUnknown = [...decided.keys()].filter((id) => !askedIds.has(id)).length;
		const log = typeof report.log === "object" && report.log !== null ? report.log : {};
		const doubleAnswered = Number(Reflect.get(log, "server.already_answered") ?? 0);
		const lost = asked - answered.length;
		const latency = summarize(outcomes.map((r) => (typeof r.ms === "number" ? r.ms : Number.NaN)));
		const logSummary = Object.entries(log)
			.map(([k, v]) => `${k}=${String(v)}`)
			.join(", ");
		return {
			figure: `6. Fan-in: ${CHILDREN} child processes × ${ASKS_PER_CHILD} asks against one serving parent`,
			measurements: [
				{
					label: "lost (asked, not answered allow with matching id + hash)",
					value: lost,
					unit: "",
					target: { op: "==", value: 0 },
				},
				{
					label: "duplicated (decided more than once)",
					value: decidedTwice + decidedUnknown,
					unit: "",
					target: { op: "==", value: 0 },
				},
				{
					label: "double-answered (second response to a request)",
					value: doubleAnswered,
					unit: "",
					target: { op: "==", value: 0 },
				},
				{ label: "answered asks", value: answered.length, unit: "", target: { op: "==", value: asked } },
				{ label: "throughput", value: asked / (wallMs / 1000), unit: "asks/s" },
				{ label: "round trip p99", value: latency.p99, unit: "ms" },
				{ label: "round trip median", value: latency.median, unit: "ms" },
			],
			notes: [
				`${asked} asks in ${wallMs.toFixed(0)} ms from the start signal to the last child done; parent decided ${decided.size} distinct ids;` +
					` files left in the inbox: ${String(report.leftoverFiles)}`,
				`server log events: ${logSummary || "none"}`,
			],
		};
	} finally {
		await stopAll(procs);
		world.cleanup();
	}
}
