import type { ChildAnnouncement } from "../hub/child-announcement.ts";
import type { Delegation } from "./delegation-guard.ts";

export interface DelegationWatchOptions {
	/** Gated children announced to this session since a time; null when it serves no inbox (nobody can announce). */
	readonly childrenSince: (sinceMs: number) => readonly ChildAnnouncement[] | null;
	readonly warn: (message: string) => void;
	readonly log: (event: string, details: Readonly<Record<string, unknown>>) => void;
}

interface Running {
	readonly tool: string;
	readonly startedAt: number;
	readonly delegation: Delegation;
}

/**
 * The check after the fact: a foreground delegation that ran, yet no gated child announced itself while it
 * ran, had a child without the gate — or none at all, which is what an error result usually means, so that
 * warning is worded as a possibility. The settings check before the call can be wrong (an agent file it did
 * not see, a launcher change); this one cannot.
 */
export class DelegationWatch {
	private readonly options: DelegationWatchOptions;
	private readonly running = new Map<string, Running>();

	constructor(options: DelegationWatchOptions) {
		this.options = options;
	}

	/** A delegation the gate let through; `startedAt` is before any child it starts can exist. */
	started(toolCallId: string, tool: string, delegation: Delegation, startedAt: number): void {
		if (!delegation.call.launches || !delegation.call.foreground) return;
		this.running.set(toolCallId, { tool, startedAt, delegation });
	}

	finished(toolCallId: string, isError: boolean): void {
		const call = this.running.get(toolCallId);
		if (!call) return;
		this.running.delete(toolCallId);
		const children = this.options.childrenSince(call.startedAt);
		if (children === null || children.length > 0) return;
		const { verdict, launcher } = call.delegation;
		const advice = verdict.gated
			? `Its settings looked right (${verdict.via}), so something else started it without pi-permission-hub; check the agent's own extensions.`
			: `To gate subagents, ${verdict.fix.text}.`;
		const what = isError
			? `the ${call.tool} call failed and no gated child announced itself: if a subagent ran, it ran without the permission gate.`
			: `the subagent ran without the permission gate — no gated child announced itself during this ${call.tool} call.`;
		this.options.warn(`pi-permission-hub: ${what} ${advice}`);
		this.options.log("delegation.ungated_child", {
			toolCallId,
			launcher: launcher.kind,
			agents: call.delegation.call.agents,
			expectedGated: verdict.gated,
			isError,
		});
	}
}
