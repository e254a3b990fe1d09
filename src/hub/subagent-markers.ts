/**
 * Variables subagent launchers set in their children (pi-subagents, pi-agent-router, pi-interactive-subagents
 * and others). Any of them marks this session as a subagent even when no parent can be found; the names are
 * caller-claimed labels, sanitized before use.
 */
export const SUBAGENT_MARKERS = [
	"PI_SUBAGENT_CHILD",
	"PI_SUBAGENT_RUN_ID",
	"PI_SUBAGENT_CHILD_AGENT",
	"PI_SUBAGENT_DEPTH",
	"PI_SUBAGENT_NAME",
	"PI_SUBAGENT_ID",
	"PI_SUBAGENT_SESSION",
	"PI_SUBAGENT_SESSION_ID",
	"PI_SUBAGENT_ACTIVITY_FILE",
	"PI_IS_SUBAGENT",
	"PI_AGENT_ROUTER_SUBAGENT",
] as const;

/** Where a launcher puts the child's agent name, most specific first. */
const NAME_VARIABLES = [
	"PI_PERMISSION_HUB_AGENT",
	"PI_SUBAGENT_CHILD_AGENT",
	"PI_SUBAGENT_NAME",
	"PI_SUBAGENT_AGENT",
];

export function markedAsSubagent(env: Readonly<Record<string, string | undefined>>): boolean {
	return SUBAGENT_MARKERS.some((name) => (env[name] ?? "").trim() !== "");
}

export function claimedAgentName(env: Readonly<Record<string, string | undefined>>): string | null {
	for (const name of NAME_VARIABLES) {
		const value = env[name]?.trim();
		if (value) return value;
	}
	return null;
}
