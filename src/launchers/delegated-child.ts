/**
 * Which agent a child without a name of its own was started as (adr/0025). A process launcher such as pi's
 * example `subagent` tool tells its child nothing, but the session that called the tool knows the agents the call
 * named. A child is matched to a call by process ancestry (it descends from this process), by timing (it
 * announced itself while the call ran) and, when the call started several agents, by its command line carrying
 * one task's text. The answer is a guess: a child can lie about its pid and a launcher can pass the task another
 * way, so it is shown marked and never used by the policy.
 */
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
	/** The child's command line, when it can be read (another process's, on Linux). */
	readonly argv: readonly string[] | null;
}

export interface AgentGuess {
	readonly agent: string;
	/** The calls running then named this agent more than once: its name alone cannot tell the children apart. */
	readonly shared: boolean;
}

/** pi's example substitutes the previous step's output here in a chain's task. */
const PREVIOUS = "{previous}";

export function guessDelegatedAgent(child: ChildFacts, runs: readonly DelegationRun[]): AgentGuess | null {
	if (!child.descendant) return null;
	const tasks = runs
		.filter(
			(run) => run.startedAt <= child.startedAt && (run.endedAt === null || child.startedAt <= run.endedAt),
		)
		.flatMap((run) => run.tasks);
	if (tasks.length === 0) return null;
	const carried = child.argv === null ? [] : carriedTasks(child.argv, tasks);
	const agents = new Set((carried.length > 0 ? carried : tasks).map((task) => task.agent));
	if (agents.size !== 1) return null;
	const [agent] = agents;
	if (agent === undefined) return null;
	return { agent, shared: tasks.filter((task) => task.agent === agent).length > 1 };
}

/** The tasks whose text the command line carries; of several, the longest (one task's text may hold another's). */
function carriedTasks(argv: readonly string[], tasks: readonly DelegatedTask[]): DelegatedTask[] {
	const found = tasks.filter(
		(task) => task.task !== null && argv.some((arg) => carries(arg, task.task ?? "")),
	);
	const longest = Math.max(0, ...found.map((task) => literalLength(task.task ?? "")));
	return found.filter((task) => literalLength(task.task ?? "") === longest);
}

/** The task's literal parts appear in the argument in order (a chain step's `{previous}` is filled in). */
function carries(arg: string, task: string): boolean {
	const parts = task
		.split(PREVIOUS)
		.map((part) => part.trim())
		.filter((part) => part !== "");
	if (parts.length === 0) return false;
	let from = 0;
	for (const part of parts) {
		const at = arg.indexOf(part, from);
		if (at < 0) return false;
		from = at + part.length;
	}
	return true;
}

function literalLength(task: string): number {
	return task.split(PREVIOUS).join("").trim().length;
}
