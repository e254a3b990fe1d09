/**
 * How one hop of a requester's path is shown to a human (adr/0025): its agent name, else the agent its parent's
 * delegation call named (a guess, marked `?`), else a short stable id. The policy keeps matching the claimed
 * names (`Origin.path`); these labels are for reading only.
 */
import { sanitizeShortLabel, truncateUtf8 } from "./sanitize-label.ts";

/**
 * The labels of a path's hops: the worked-out ones when they fit it (one a hop), else the claimed names. Not yet
 * safe to show: a caller sanitizes each (`safeShownLabel`).
 */
export function shownOrClaimed(
	path: readonly string[],
	shown: readonly string[] | null | undefined,
): readonly string[] {
	return shown && shown.length === path.length ? shown : path;
}

/** The label a session without an agent name has in `Origin.path` (what agent rules match). */
export const UNNAMED = "subagent";

/** Names a child may not be shown by alone: they would read as the root, or as no name at all. */
const RESERVED = new Set(["root", UNNAMED]);

/** Arrows join the hops of a label (`root ← worker`): a name holding one could forge a hop. */
const ARROWS = /[←↞↢⇐⇚⇠⇦⟵⟸⬅⥪⥫]|<-/gu;

/** What is known of a hop's name, best first. */
export type HopName =
	| { readonly kind: "claimed"; readonly name: string }
	/** `shared`: the delegation started more than one child of this agent, so the id tells them apart. */
	| { readonly kind: "guessed"; readonly agent: string; readonly shared: boolean }
	| { readonly kind: "unnamed" };

/** A label read from another process (a relayed request, an audit line): one line, no arrow, bounded. */
export function safeShownLabel(label: string): string {
	return sanitizeShortLabel(label.replace(ARROWS, "-").replace(/\s+/gu, " "));
}

/** Room left in a shown label (64 bytes) for the guess mark and a stable id after the name. */
const MAX_NAME_BYTES = 40;

/** A caller-claimed name as shown: also without `?` and `#`, which mark only the gate's own guesses and ids. */
export function safeAgentName(name: string): string {
	// `?` marks a guess and `#` a stable id: a claimed name holding either could pass for another child's label.
	return truncateUtf8(safeShownLabel(name.replace(/[?#]/gu, "")), MAX_NAME_BYTES).trimEnd();
}

/** The short stable id of a child: its pid, or for a child inside its parent's process its session id's start. */
export function stableId(child: {
	readonly inProcess: boolean;
	readonly pid: number;
	readonly sessionId: string;
}): string {
	return child.inProcess ? child.sessionId.slice(0, 8) : `#${child.pid}`;
}

/** The label of a hop below the root; `id` is its stable id. */
export function shownHop(name: HopName, id: string): string {
	const safeId = safeShownLabel(id);
	switch (name.kind) {
		case "claimed": {
			const shown = safeAgentName(name.name);
			if (shown === "") return `${UNNAMED} ${safeId}`;
			return RESERVED.has(shown.toLowerCase()) ? `${shown} ${safeId}` : shown;
		}
		case "guessed": {
			const agent = safeAgentName(name.agent);
			if (agent === "") return `${UNNAMED} ${safeId}`;
			const withId = name.shared || RESERVED.has(agent.toLowerCase());
			return withId ? `${agent}? ${safeId}` : `${agent}?`;
		}
		case "unnamed":
			return `${UNNAMED} ${safeId}`;
	}
}

/** The name a hop claims in `Origin.path`, read as a `HopName`: the unnamed label claims nothing. */
export function claimedHop(label: string): HopName {
	const name = safeAgentName(label);
	return name === "" || name === UNNAMED ? { kind: "unnamed" } : { kind: "claimed", name: label };
}

/** True when a shown label carries a guess (only `shownHop` writes a `?`). */
export function isGuessed(label: string): boolean {
	return label.includes("?");
}
