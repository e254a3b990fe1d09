/**
 * Which agent a child without a name of its own was started as (adr/0025). A process launcher such as pi's
 * example `subagent` tool tells its child nothing, but the session that called the tool knows the agents the call
 * named. A child is matched to a call by process ancestry (it descends from this process), by timing (it
 * announced itself while the call ran) and, when the call started several agents, by one of the arguments it
 * was started with being one task's text. The answer is a guess: a child can lie about its pid and its arguments,
 * and a launcher can pass the task another way, so it is shown marked and never used by the policy.
 */
import { createHash } from "node:crypto";
import type { DelegatedTask } from "./known-launcher.ts";

/** A delegation call of this session, as it ran. */
export interface DelegationRun {
	/** Epoch ms, before any child it starts can exist. */
	readonly startedAt: number;
	/** Epoch ms; null while it runs. */
	readonly endedAt: number | null;
	readonly tasks: readonly DelegatedTask[];
}

/** What this session can see of one announced child. */
export interface ChildFacts {
	/** When it announced itself (epoch ms). */
	readonly startedAt: number;
	/** This process is the child's process or one of its ancestors. */
	readonly descendant: boolean;
	/** What the child announced of its arguments (`argDigest` of each); null for none. */
	readonly argDigests: readonly string[] | null;
}

export interface AgentGuess {
	readonly agent: string;
	/** The calls running then named this agent more than once: its name alone cannot tell the children apart. */
	readonly shared: boolean;
}

/**
 * The arguments a task may reach a child process as: pi's example launcher (and its copies) passes
 * `Task: <task>`, others the task itself.
 */
function taskArguments(task: string): string[] {
	return [task, `Task: ${task}`];
}

/** The digest a child announces for each of its arguments (it never writes the arguments themselves). */
export function argDigest(arg: string): string {
	return createHash("sha256").update(arg).digest("hex");
}

export function guessDelegatedAgent(child: ChildFacts, runs: readonly DelegationRun[]): AgentGuess | null {
	if (!child.descendant) return null;
	const tasks = runs
		.filter(
			(run) => run.startedAt <= child.startedAt && (run.endedAt === null || child.startedAt <= run.endedAt),
		)
		.flatMap((run) => run.tasks);
	if (tasks.length === 0) return null;
	const digests = new Set(child.argDigests ?? []);
	const carried = tasks.filter(
		(task) => task.task !== null && taskArguments(task.task).some((arg) => digests.has(argDigest(arg))),
	);
	const agents = new Set((carried.length > 0 ? carried : tasks).map((task) => task.agent));
	if (agents.size !== 1) return null;
	const [agent] = agents;
	if (agent === undefined) return null;
	return { agent, shared: tasks.filter((task) => task.agent === agent).length > 1 };
}
