/**
 * The agent name a launcher wrote into a session's system prompt (pi-subagents: `<active_agent name="…"/>`):
 * how an in-process child says which agent it is when no variable does (adr/0025). Caller-claimed: the hub
 * sanitizes it as a label, never trusts it.
 */

/** The name, or null when the prompt names none or cannot be read. */
export function promptAgentName(systemPrompt: () => string): string | null {
	try {
		return /<active_agent name="([^"<>]{1,200})"/.exec(systemPrompt())?.[1] ?? null;
	} catch {
		return null;
	}
}
