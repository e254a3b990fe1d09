/**
 * Running the bash tool in the sandbox its decision calls for (adr/0017). When the policy turns the sandbox on,
 * the session registers its own `bash` tool — pi's, built with the user's shell settings and a spawn hook —
 * and every allowed bash call runs in the profile of the tier it was allowed at, unless a human approved it.
 */
import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type {
	AgentToolResult,
	BashSpawnHook,
	ExtensionAPI,
	ExtensionContext,
} from "@earendil-works/pi-coding-agent";
import type { SandboxRecord } from "../audit/audit-entry.ts";
import { innermostSource } from "../provenance/decision-source.ts";
import {
	type BubblewrapProbe,
	probeBubblewrap,
	type SandboxProfile,
	sandboxedCommand,
} from "../sandbox/bubblewrap.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { Tier } from "../vocabulary/tier.ts";
import type { GateOutcome } from "./pipeline.ts";

/** pi's bash tool and settings. */
export interface BashKit {
	readonly createBashTool: typeof import("@earendil-works/pi-coding-agent").createBashTool;
	readonly SettingsManager: typeof import("@earendil-works/pi-coding-agent").SettingsManager;
}

/**
 * pi's bash tool and settings, loaded only when the sandbox is on: importing pi's package costs a pi start about
 * half a second (measured with bench figure 4), which nobody should pay for a feature they did not turn on. It is
 * loaded from the pi that runs this process (the package above its command), natively, not through this
 * package's `node_modules`: pi installs extensions without their peer dependencies (adr/0012).
 */
export async function loadBashKit(piCommand: string | undefined): Promise<BashKit> {
	if (piCommand === undefined) throw new Error("this process was not started by a pi command");
	let dir = dirname(realpathSync(piCommand));
	for (let level = 0; level < 6; level++) {
		const manifest = readManifestName(join(dir, "package.json"));
		if (manifest === "@earendil-works/pi-coding-agent") {
			const module: unknown = await import(pathToFileURL(join(dir, "dist", "index.js")).href);
			if (!isBashKit(module))
				throw new Error(`pi's package at ${dir} does not export createBashTool and SettingsManager`);
			return module;
		}
		const parent = dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	throw new Error(`pi's package was not found above ${piCommand}`);
}

function readManifestName(file: string): string | null {
	try {
		const name: unknown = Reflect.get(JSON.parse(readFileSync(file, "utf8")) ?? {}, "name");
		return typeof name === "string" ? name : null;
	} catch {
		return null;
	}
}

function isBashKit(value: unknown): value is BashKit {
	return (
		typeof value === "object" &&
		value !== null &&
		typeof Reflect.get(value, "createBashTool") === "function" &&
		typeof Reflect.get(value, "SettingsManager") === "function"
	);
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
	/** Set once the sandbox is on for this session: what this machine can do (probed once). */
	private registered: BubblewrapProbe | null = null;

	constructor(options: SandboxingOptions) {
		this.options = options;
	}

	/**
	 * Replace pi's bash tool with the same tool run through the sandbox. When pi's tool cannot be loaded, say so
	 * and leave pi's bash in place: commands then run as without the sandbox, never blocked by it.
	 */
	async register(cwd: string): Promise<void> {
		let kit: BashKit;
		try {
			kit = await loadBashKit(process.argv[1]);
		} catch (error) {
			// pi's own bash runs every call as without the sandbox, and the audit lines say so.
			const why = `pi's bash tool could not be loaded (${errorMessage(error)})`;
			this.registered = { usable: false, why };
			this.warnOnce(why);
			return;
		}
		const base = kit.createBashTool(cwd);
		this.registered = (this.options.probe ?? probeBubblewrap)();
		this.options.pi.registerTool({
			...base,
			execute: (toolCallId, params, signal, onUpdate, ctx) =>
				this.run(kit, toolCallId, params, signal, onUpdate, ctx),
		});
	}

	/**
	 * An allowed bash call: the sandbox it will run in, as the audit line records it (undefined while the sandbox
	 * is off: pi's own bash runs it).
	 */
	allowed(toolCallId: string, outcome: GateOutcome): SandboxRecord | undefined {
		if (this.registered === null) return undefined;
		const profile = sandboxProfileFor(outcome);
		this.plans.set(toolCallId, { profile });
		if (profile === null) return "none";
		return this.registered.usable ? profile : "unavailable";
	}

	private run(
		kit: BashKit,
		toolCallId: string,
		params: { command: string; timeout?: number },
		signal: AbortSignal | undefined,
		onUpdate: Parameters<ReturnType<BashKit["createBashTool"]>["execute"]>[3],
		ctx: ExtensionContext,
	): Promise<AgentToolResult<unknown>> {
		const { agentDir } = this.options;
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
		const probe = this.registered;
		if (probe === null) return null;
		if (!probe.usable) {
			this.warnOnce(`${probe.why}. Install bubblewrap (Debian/Ubuntu: apt install bubblewrap)`);
			return null;
		}
		const place = {
			project: realpathSync(sessionCwd),
			keepReadOnly: [homedir(), this.options.agentDir].map(resolvedPath),
		};
		return (spawn) => ({
			...spawn,
			command: sandboxedCommand(spawn.command, profile, { ...place, cwd: spawn.cwd }, probe),
		});
	}

	private warnOnce(why: string): void {
		if (this.warned) return;
		this.warned = true;
		this.options.warn(
			`pi-permission-hub: the sandbox is on, but no sandbox can run here: ${why}; commands run unsandboxed.`,
		);
	}
}

/** The real path, or the path as given when it does not exist (nothing can be written there either). */
function resolvedPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}
