import { fileURLToPath } from "node:url";
import type { ToolCall } from "../classify/action.ts";
import type { ChildAnnouncement } from "../hub/child-announcement.ts";
import type { ChildGateVerdict } from "../launchers/child-gate.ts";
import { childGateVerdict, type FixEntries } from "../launchers/child-gate.ts";
import { type ChildReach, childReach, describeReach, isContained } from "../launchers/child-reach.ts";
import type { FileView } from "../launchers/file-view.ts";
import {
	type DelegationCall,
	identifyLauncher,
	type KnownLauncher,
	LAUNCHER_TOOLS,
	launcherDescription,
	readDelegationCall,
} from "../launchers/known-launcher.ts";
import { type GatePackage, gatePackageAt } from "../launchers/package-manifest.ts";
import { packagesEntryFor } from "../launchers/packages-entry.ts";

/** A call of a known launcher's tool: what it starts, and whether those children would carry the gate. */
export interface Delegation {
	readonly launcher: KnownLauncher;
	readonly call: DelegationCall;
	readonly verdict: ChildGateVerdict;
	/** What the children load beyond the gate and the user's own configuration, and where they run (adr/0011). */
	readonly reach: ChildReach;
	/**
	 * Null when the children are contained (they load the gate and what the user configured outside the project,
	 * and run inside the project); else what they load and where they run, in words for the dialog.
	 */
	readonly uncontained: string | null;
}

export interface DelegationGuardOptions {
	/** `sourceInfo.path` of a tool in this session, or null when pi does not know it. */
	readonly toolSource: (tool: string) => string | null;
	readonly agentDir: string;
	readonly homeDir: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly projectTrusted: () => boolean;
	/** The root's project: the one directory a child may run in without a human saying so (adr/0011). */
	readonly projectDir: () => string;
	readonly files: FileView;
}

/** This copy of the gate's package, and the settings change that would put it in children (null: none). */
interface OwnPackage {
	readonly gate: GatePackage | null;
	readonly fixEntries: FixEntries | null;
}

/** This module's own copy of the package: the one a fix should point children at. */
const OWN_MODULE = fileURLToPath(import.meta.url);

/**
 * Tells, for a tool call, whether it delegates to a known subagent launcher and whether the children would run
 * with the permission gate. The answer is worked out from the settings on disk at the time of the call, once
 * per call (the gate asks before the call and the watch after it reads the same answer).
 */
export class DelegationGuard {
	private readonly options: DelegationGuardOptions;
	/** Found on the first launcher call, not at session start: most sessions never delegate (adr/0028). */
	private own: OwnPackage | null = null;
	private readonly seen = new WeakMap<object, Delegation | null>();

	constructor(options: DelegationGuardOptions) {
		this.options = options;
	}

	private ownPackage(): OwnPackage {
		if (this.own === null) {
			const { agentDir, files } = this.options;
			const gate = gatePackageAt(OWN_MODULE, files);
			// As `doctor --fix`: a change is offered only for a lasting copy of the gate (not a temporary one).
			const packages = gate && packagesEntryFor(gate.root, agentDir, files);
			this.own = { gate, fixEntries: gate && packages ? { packages, childList: gate.root } : null };
		}
		return this.own;
	}

	inspect(call: ToolCall): Delegation | null {
		const known = this.seen.get(call.input);
		if (known !== undefined) return known;
		const found = this.evaluate(call);
		this.seen.set(call.input, found);
		return found;
	}

	/** The call checked again against the settings as they are now (after a fix was written), replacing the first answer. */
	recheck(call: ToolCall): Delegation | null {
		const found = this.evaluate(call);
		this.seen.set(call.input, found);
		return found;
	}

	private evaluate(call: ToolCall): Delegation | null {
		const { options } = this;
		if (!LAUNCHER_TOOLS.has(call.tool)) return null;
		const launcher = identifyLauncher(
			{ name: call.tool, sourcePath: options.toolSource(call.tool) },
			options.files,
		);
		if (!launcher) return null;
		const delegation = readDelegationCall(launcher, call.input, call.cwd, options);
		const query = {
			launcher,
			call: delegation,
			agentDir: options.agentDir,
			homeDir: options.homeDir,
			projectTrusted: options.projectTrusted(),
			env: options.env,
			...this.ownPackage(),
			files: options.files,
		};
		const verdict = childGateVerdict(query);
		const projectDir = options.projectDir();
		const reach = childReach(query, projectDir);
		const uncontained = isContained(reach) ? null : uncontainedText(launcher, verdict, reach, projectDir);
		return { launcher, call: delegation, verdict, reach, uncontained };
	}
}

/**
 * An uncontained child in words: what it loads and where it runs, that the code it loads runs unsandboxed and
 * unchecked, and whether its own tool calls are checked and sandboxed.
 */
function uncontainedText(
	launcher: KnownLauncher,
	verdict: ChildGateVerdict,
	reach: ChildReach,
	projectDir: string,
): string {
	const children = launcherDescription(launcher.kind).children;
	const where =
		children === "process" ? "in the subagent's pi process" : "inside this pi process, as pi itself";
	const code = reach.loads.some((load) => load.kind === "extension")
		? ` That extension code runs ${where}, with no sandbox and no permission checks.`
		: "";
	const calls = verdict.gated
		? " The subagent's own tool calls are checked by its gate, which sandboxes its bash commands as its policy says."
		: " The subagent's own tool calls run without permission checks and unsandboxed.";
	return `the subagent is not contained to what the user configured: ${describeReach(reach, projectDir)}.${code}${calls}`;
}

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
