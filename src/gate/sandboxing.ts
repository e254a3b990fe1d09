/**
 * Running the bash tool in the sandbox its decision calls for (adr/0017). When the policy turns the sandbox on,
 * the session registers its own `bash` tool — pi's, built with the user's shell settings and a spawn hook —
 * and every allowed bash call runs in the profile of the tier it was allowed at, unless a human approved it.
 */
import { realpathSync } from "node:fs";
import type {
	AgentToolResult,
	BashSpawnHook,
	ExtensionAPI,
	ExtensionContext,
} from "@earendil-works/pi-coding-agent";
import { innermostSource } from "../provenance/decision-source.ts";
import {
	type BubblewrapProbe,
	probeBubblewrap,
	type SandboxProfile,
	sandboxedCommand,
} from "../sandbox/bubblewrap.ts";
import type { Tier } from "../vocabulary/tier.ts";
import type { GateOutcome } from "./pipeline.ts";

/** pi's bash tool and settings as pi provides them to the entry it loads (like the TUI kit, adr/0012). */
export interface BashKit {
	readonly createBashTool: typeof import("@earendil-works/pi-coding-agent").createBashTool;
	readonly SettingsManager: typeof import("@earendil-works/pi-coding-agent").SettingsManager;
}

/** A sandbox per tier: what an allowed command may do is what its tier says, whatever it turns out to run. */
const PROFILE_OF_TIER: Readonly<Record<Tier, SandboxProfile>> = {
	read: "read-only",
	write: "project-write",
	destructive: "project-write",
	"network-egress": "network",
	spend: "network",
	privileged: "network",
};

/**
 * The profile an allowed call runs in, or null to run it as approved: a human who approved this very action (at
 * a dialog, typed it, or approved its parked request) decided what it may do.
 */
export function sandboxProfileFor(outcome: GateOutcome): SandboxProfile | null {
	const decisive = innermostSource(outcome.source).source;
	if (decisive?.kind === "user" || decisive?.kind === "parked_approval") return null;
	return PROFILE_OF_TIER[outcome.action?.tier ?? "privileged"];
}

interface Plan {
	readonly profile: SandboxProfile | null;
}

export interface SandboxingOptions {
	readonly pi: ExtensionAPI;
	readonly kit: BashKit;
	readonly agentDir: string;
	/** Said once, loudly, when the sandbox is on but cannot run here. */
	readonly warn: (message: string) => void;
	readonly probe?: () => BubblewrapProbe;
}

/** One session's sandboxed bash: the plans recorded when calls are allowed, used when pi runs them. */
export class Sandboxing {
	private readonly plans = new Map<string, Plan>();
	private readonly options: SandboxingOptions;
	private warned = false;

	constructor(options: SandboxingOptions) {
		this.options = options;
	}

	/** Replace pi's bash tool with the same tool run through the sandbox. */
	register(cwd: string): void {
		const { pi, kit } = this.options;
		const base = kit.createBashTool(cwd);
		pi.registerTool({
			...base,
			execute: (toolCallId, params, signal, onUpdate, ctx) =>
				this.run(toolCallId, params, signal, onUpdate, ctx),
		});
	}

	/** An allowed bash call: the sandbox it will run in. */
	allowed(toolCallId: string, outcome: GateOutcome): void {
		this.plans.set(toolCallId, { profile: sandboxProfileFor(outcome) });
	}

	private run(
		toolCallId: string,
		params: { command: string; timeout?: number },
		signal: AbortSignal | undefined,
		onUpdate: Parameters<ReturnType<BashKit["createBashTool"]>["execute"]>[3],
		ctx: ExtensionContext,
	): Promise<AgentToolResult<unknown>> {
		const { kit, agentDir } = this.options;
		// A call the gate did not see allowed runs in the strictest profile, never unconfined.
		const plan = this.plans.get(toolCallId) ?? { profile: "read-only" };
		this.plans.delete(toolCallId);
		const settings = kit.SettingsManager.create(ctx.cwd, agentDir);
		const shell = {
			...(settings.getShellCommandPrefix() ? { commandPrefix: settings.getShellCommandPrefix() } : {}),
			...(settings.getShellPath() ? { shellPath: settings.getShellPath() } : {}),
		};
		const hook = plan.profile === null ? null : this.hookFor(plan.profile, ctx.cwd);
		const tool = kit.createBashTool(ctx.cwd, { ...shell, ...(hook ? { spawnHook: hook } : {}) });
		return tool.execute(toolCallId, params, signal, onUpdate);
	}

	private hookFor(profile: SandboxProfile, sessionCwd: string): BashSpawnHook | null {
		const probe = (this.options.probe ?? probeBubblewrap)();
		if (!probe.usable) {
			if (!this.warned) {
				this.warned = true;
				this.options.warn(
					`pi-permission-hub: the sandbox is on, but no sandbox can run here (${probe.why}); commands run unsandboxed. Install bubblewrap (Debian/Ubuntu: apt install bubblewrap).`,
				);
			}
			return null;
		}
		const project = realpathSync(sessionCwd);
		return (spawn) => ({
			...spawn,
			command: sandboxedCommand(spawn.command, profile, { project, cwd: spawn.cwd }, probe),
		});
	}
}
