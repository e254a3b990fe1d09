/** A private temporary agent dir for the hub figures (the inbox code refuses group- or world-writable dirs). */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HubProc } from "./hub-proc.ts";

export interface HubWorld {
	readonly agentDir: string;
	readonly logFile: string;
	cleanup(): void;
}

export function createHubWorld(): HubWorld {
	const agentDir = realpathSync(mkdtempSync(join(tmpdir(), "pph-bench-hub-")));
	return {
		agentDir,
		logFile: join(agentDir, "hub.log"),
		cleanup: () => rmSync(agentDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }),
	};
}

/** The root session both hub figures serve. */
const SESSION = "bench-root-session";

/** A serving parent process, tracked in `procs` (stopped by the caller), once it serves its inbox. */
export async function startServingParent(
	world: HubWorld,
	procs: HubProc[],
): Promise<{ readonly parent: HubProc; readonly inbox: unknown }> {
	const parent = new HubProc({ role: "serve", agentDir: world.agentDir, sessionId: SESSION });
	procs.push(parent);
	const serving = await parent.waitFor("serving");
	return { parent, inbox: serving.inbox };
}

/** Child process number `index` (from 0), which asks `count` times when sent "go"; tracked in `procs`. */
export function askingChild(
	world: HubWorld,
	served: { readonly parent: HubProc; readonly inbox: unknown },
	procs: HubProc[],
	index: number,
	count: number,
): HubProc {
	const child = new HubProc({
		role: "ask",
		name: `worker-${index + 1}`,
		sessionId: SESSION,
		inbox: served.inbox,
		parentPid: served.parent.pid,
		count,
		logFile: world.logFile,
	});
	procs.push(child);
	return child;
}

/**
 * The anchor's 250 ms polling transport in `dir`: a polling parent and one child asking `count` times in sequence
 * (both tracked in `procs`); the child's round trips, and how many asks were not answered with allow.
 */
export async function pollingRoundTrips(
	dir: string,
	procs: HubProc[],
	count: number,
): Promise<{ readonly ms: number[]; readonly failures: number }> {
	const parent = new HubProc({ role: "poll-serve", dir });
	procs.push(parent);
	await parent.waitFor("serving");
	const child = new HubProc({ role: "poll-ask", dir, count });
	procs.push(child);
	await child.waitFor("ready");
	child.send("go");
	await child.waitFor("done", 60_000);
	parent.endInput();
	return outcomeTimes(child);
}

/** The round trips a child process reported, and how many of its asks were not answered with allow. */
export function outcomeTimes(proc: HubProc): { ms: number[]; failures: number } {
	const outcomes = proc.records.filter((r) => r.event === "outcome");
	const ms = outcomes.map((r) => (typeof r.ms === "number" ? r.ms : Number.NaN));
	const failures = outcomes.filter(
		(r) => r.kind !== "answered" || (r.decision !== undefined && r.decision !== "allow"),
	).length;
	return { ms, failures };
}
