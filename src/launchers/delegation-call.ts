import { isAbsolute, resolve } from "node:path";
import type { KnownLauncher } from "./known-launcher.ts";

/** What one call of a launcher's tool would start, read from its input (caller data: anything may be missing). */
export interface DelegationCall {
	/** False for calls that start no child (pi-subagents' read-only management actions). */
	readonly launches: boolean;
	/** True when the child runs while the call waits (its end is the call's end). */
	readonly foreground: boolean;
	/** The agents it names; null when it may start any agent (a workflow, a script, no agent field). */
	readonly agents: readonly string[] | null;
	/** The directories its children run in (absolute). */
	readonly cwds: readonly string[];
}

/** pi-subagents actions that only read or report: no child is started by them. */
const READ_ONLY_ACTIONS = new Set([
	"list",
	"get",
	"models",
	"children.list",
	"guide",
	"validate",
	"status",
	"doctor",
	"mission.list",
	"mission.show",
	"schedule.list",
	"schedule.show",
	"schedule.history",
	"lane.status",
	"watchdog.status",
	"inspector.status",
	"project.status",
	"refine.show",
]);

export function readDelegationCall(
	launcher: KnownLauncher,
	input: Readonly<Record<string, unknown>>,
	sessionCwd: string,
): DelegationCall {
	const cwdOf = (value: unknown): string =>
		typeof value === "string" && value.trim() !== ""
			? isAbsolute(value)
				? resolve(value)
				: resolve(sessionCwd, value)
			: sessionCwd;
	if (launcher.kind === "pi-subagents") {
		const action = input.action;
		return {
			launches: typeof action !== "string" || !READ_ONLY_ACTIONS.has(action),
			// Without `async: false` the launch may go to the background runner (its default).
			foreground: input.async === false && typeof action !== "string",
			agents: typeof input.agent === "string" ? [input.agent] : null,
			cwds: [cwdOf(input.cwd)],
		};
	}
	// pi's example: a single `{agent, task}`, or `tasks` / `chain` lists of them, each with an optional cwd.
	const items = [input, ...listOf(input.tasks), ...listOf(input.chain)];
	const named = items.flatMap((item) => (typeof item.agent === "string" ? [item.agent] : []));
	return {
		launches: true,
		foreground: true,
		agents: named.length > 0 ? named : null,
		cwds: [...new Set(items.map((item) => cwdOf(item.cwd)))],
	};
}

function listOf(value: unknown): Readonly<Record<string, unknown>>[] {
	if (!Array.isArray(value)) return [];
	return value.filter(
		(item): item is Readonly<Record<string, unknown>> => typeof item === "object" && item !== null,
	);
}
