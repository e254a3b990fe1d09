import { processWide } from "../process-wide.ts";

/**
 * The environment this process was started with, for the variables that name a parent. A serving session
 * writes its own values into `process.env` (so the processes it spawns inherit them); reading them back later
 * (after `/new`, a reload, another in-process session) must not make the session its own parent. The first
 * copy of this module to load in a process records the inherited values, before any session wrote over them.
 */
export const PARENT_VARIABLES = [
	"PI_PERMISSION_HUB_PARENT",
	"PI_SUBAGENT_PARENT_SESSION",
	"PI_AGENT_ROUTER_PARENT_SESSION_ID",
] as const;

export function inheritedEnv(): Readonly<Record<string, string | undefined>> {
	return processWide<Readonly<Record<string, string | undefined>>>("inherited-env.v1", () =>
		Object.freeze(Object.fromEntries(PARENT_VARIABLES.map((name) => [name, process.env[name]]))),
	);
}

// Record at load time: the earliest moment this package runs in the process.
inheritedEnv();
