/**
 * Figure 11: a subagent's ask forwarded to the root and answered, in real pi. A root `pi --mode rpc` with the
 * extension serves its inbox; a child `pi --mode json -p` with the extension, started as launchers start one
 * (`PI_SUBAGENT_PARENT_SESSION`, `PI_SUBAGENT_CHILD`), makes sequential write-tier bash calls its own policy
 * asks about. The root decides them either with an authorizer link or with a dialog this process answers at once
 * (the RPC client plays the human). What forwarding adds is the child's `tool_execution_start →
 * tool_execution_end` of call k minus the median of call k decided by the same link in the child's own session
 * (same commands, a sandbox laid out alike: a process's first call is slower on both paths alike). Local, link and
 * dialog runs interleave, both roots serving. Target: a link-decided ask adds at most 5 ms median, 25 ms p99. The
 * dialog path and the 250 ms polling transport of figure 5 are reported beside it.
 */
import { join } from "node:path";
import { writeScript } from "../test/harness/faux-script.ts";
import { EXTENSION_ENTRY, REPO_ROOT } from "../test/harness/paths.ts";
import { type RpcSession, startRpc } from "../test/harness/rpc-session.ts";
import { createSandbox, type Sandbox } from "../test/harness/sandbox.ts";
import { type HubProc, stopAll } from "./hub-proc.ts";
import { pollingRoundTrips } from "./hub-world.ts";
import type { FigureResult, Measurement } from "./report.ts";
import { median, summarize } from "./stats.ts";
import { timedChildRun } from "./timed-child.ts";

const CALLS = 20;
const RUNS = 4;
const POLLING_ASKS = 12;
const LINKS_FIXTURE = join(REPO_ROOT, "test", "fixtures", "authorizer-links-extension.ts");

type Path = "link" | "dialog";

async function writeConfig(sb: Sandbox, config: object): Promise<void> {
	await sb.writeAgentFile("pi-permission-hub/config.json", `${JSON.stringify(config)}\n`);
}

/** The sandbox is off: this figure measures forwarding, figure 10 measures the sandbox. */
const BASE_CONFIG = { sandbox: { enabled: false } };

async function startRoot(sb: Sandbox, path: Path): Promise<{ rpc: RpcSession; sessionId: string }> {
	await writeConfig(
		sb,
		path === "link" ? { ...BASE_CONFIG, authorizerChain: ["fixture-allow"] } : BASE_CONFIG,
	);
	const rpc = await startRpc({
		sandbox: sb,
		extensions: path === "link" ? [EXTENSION_ENTRY, LINKS_FIXTURE] : [EXTENSION_ENTRY],
		dialog: (request) => {
			if (request.method !== "select") throw new Error(`unexpected ${request.method}: ${request.title}`);
			const allow = request.options.find((o) => o.startsWith("Allow once"));
			if (allow === undefined) throw new Error(`no Allow once in ${request.options.join(" | ")}`);
			return { select: allow };
		},
		timeoutMs: 60_000,
	});
	const { sessionId } = await rpc.getState();
	return { rpc, sessionId };
}

async function childCalls(sb: Sandbox, parent: string | null): Promise<number[]> {
	const run = await timedChildRun(
		{
			sandbox: sb,
			// Without a parent the child decides its asks itself, with the link the root uses on the link path.
			extensions: parent === null ? [EXTENSION_ENTRY, LINKS_FIXTURE] : [EXTENSION_ENTRY],
			env: parent === null ? {} : { PI_SUBAGENT_PARENT_SESSION: parent, PI_SUBAGENT_CHILD: "1" },
		},
		"make the files",
	);
	if (run.callMs.length !== CALLS || run.errors > 0) {
		throw new Error(
			`the child made ${run.callMs.length} of ${CALLS} calls, ${run.errors} failed: ${run.stderr.slice(-600)}`,
		);
	}
	return [...run.callMs];
}

type Kind = "local" | Path;

/** The scripted model's conversation: the same sequential `touch` calls in every run. */
async function writeCalls(sb: Sandbox): Promise<void> {
	await writeScript(sb, {
		conversations: [
			{
				turns: [
					...Array.from({ length: CALLS }, (_, k) => ({
						calls: [{ tool: "bash", input: { command: `touch out-${k}.txt` } }],
					})),
					{ text: "done" },
				],
			},
		],
	});
}

export async function forwardedInPiFigure(): Promise<FigureResult> {
	// One sandbox per path, each root with its own agent dir and config, so both roots serve at once and the runs
	// of the three kinds interleave: a minute when this VM is slower weighs on all of them alike.
	const local = await createSandbox();
	const sandboxes: Record<Path, Sandbox> = { link: await createSandbox(), dialog: await createSandbox() };
	const roots: { rpc: RpcSession; sessionId: string }[] = [];
	const procs: HubProc[] = [];
	try {
		await writeCalls(local);
		// The same asks decided by the same link in the child itself: what an ask costs when nothing is forwarded.
		await writeConfig(local, { ...BASE_CONFIG, authorizerChain: ["fixture-allow"] });
		const parents: Record<Kind, string | null> = { local: null, link: null, dialog: null };
		for (const path of ["link", "dialog"] as const) {
			await writeCalls(sandboxes[path]);
			const root = await startRoot(sandboxes[path], path);
			roots.push(root);
			parents[path] = root.sessionId;
		}
		const sandboxOf = (kind: Kind): Sandbox => (kind === "local" ? local : sandboxes[kind]);
		const kinds: readonly Kind[] = ["local", "link", "dialog"];
		// A first run of each warms the file cache and the roots' code alike; it is not counted.
		for (const kind of kinds) await childCalls(sandboxOf(kind), parents[kind]);
		const runs: Record<Kind, number[][]> = { local: [], link: [], dialog: [] };
		for (let r = 0; r < RUNS; r++) {
			// The order rotates, so no kind always runs right after another.
			for (let i = 0; i < kinds.length; i++) {
				const kind = kinds[(i + r) % kinds.length] as Kind;
				runs[kind].push(await childCalls(sandboxOf(kind), parents[kind]));
			}
		}
		// Call k of a run against call k decided locally: a process's first call is slower on both paths alike.
		const localByCall = Array.from({ length: CALLS }, (_, k) =>
			median(runs.local.map((run) => run[k] ?? Number.NaN)),
		);
		const localMedian = median(runs.local.flat());
		const roundTrips: Record<Path, number[]> = { link: [], dialog: [] };
		for (const path of ["link", "dialog"] as const) {
			for (const calls of runs[path]) {
				roundTrips[path].push(...calls.map((ms, k) => ms - (localByCall[k] ?? Number.NaN)));
			}
		}

		const polling = summarize(
			(await pollingRoundTrips(join(local.root, "polling-inbox"), procs, POLLING_ASKS)).ms,
		);

		const measurements: Measurement[] = [];
		for (const path of ["link", "dialog"] as const) {
			const s = summarize(roundTrips[path]);
			// The target is the link's: a dialog's time is the human's, here an RPC client answering at once.
			const link = path === "link";
			const name = link ? "decided by a link at the root" : "root dialog answered at once";
			measurements.push(
				{
					label: `${name}: added over the child's own link, median`,
					value: s.median,
					unit: "ms",
					...(link ? { target: { op: "<=", value: 5 } as const } : {}),
				},
				{ label: "  p90", value: s.p90, unit: "ms" },
				{
					label: "  p99",
					value: s.p99,
					unit: "ms",
					...(link ? { target: { op: "<=", value: 25 } as const } : {}),
				},
				{ label: "  polling median / this median", value: polling.median / s.median, unit: "×" },
			);
		}
		measurements.push(
			{ label: "  the same ask decided by the child's own link, median", value: localMedian, unit: "ms" },
			{ label: "  250 ms polling transport, median", value: polling.median, unit: "ms" },
		);
		return {
			figure: `11. Forwarded round trip in real pi (child pi --mode json -p → root pi --mode rpc, ${RUNS} runs × ${CALLS} sequential asks per path)`,
			measurements,
			notes: [
				"added = the child's tool_execution_start → tool_execution_end of call k minus the median of call k decided by the same link in the child itself (a process's first call is slower on both paths)",
				"the sandbox is off in this figure (figure 10 measures it); the polling transport is figure 5's, between two Node processes",
			],
		};
	} finally {
		for (const root of roots) {
			root.rpc.kill();
			await root.rpc.exited;
		}
		await stopAll(procs);
		for (const sb of [local, sandboxes.link, sandboxes.dialog]) await sb.cleanup();
	}
}
