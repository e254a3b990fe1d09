/**
 * Running the bash tool in the sandbox its decision calls for (adr/0017). When the policy turns the sandbox on,
 * the session registers its own `bash` tool — pi's, built with the user's shell settings and a spawn hook —
 * and every allowed bash call runs in the profile of the tier it was allowed at, unless a human approved it.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import type { BashOperations, BashSpawnHook } from "@earendil-works/pi-coding-agent";
import type { SandboxRecord } from "../audit/audit-entry.ts";
import { guardedLinkTargets } from "../classify/guarded-paths.ts";
import type { SandboxSettings } from "../policy/effective-policy.ts";
import { humanDecided } from "../provenance/decision-source.ts";
import {
	type AllowlistNetwork,
	type BubblewrapProbe,
	findSocat,
	probeBubblewrap,
	type SandboxProfile,
	sandboxedCommand,
} from "../sandbox/bubblewrap.ts";
import type { NetworkProxy } from "../sandbox/network-proxy.ts";
import type { SandboxState } from "../sandbox/sandbox-state.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { Tier } from "../vocabulary/tier.ts";
import type { GateOutcome } from "./pipeline.ts";
import type { BashExecute, BashKit, BashRunner } from "./sandboxed-bash-tool.ts";

type BashTool = ReturnType<BashKit["createBashToolDefinition"]>;
/** The user's shell settings pi's bash tool takes. */
type BashShell = { readonly commandPrefix?: string; readonly shellPath?: string };

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
 * a dialog, typed it, or approved its parked request) decided what it may do — unless `sandbox.human` says
 * their approvals run in the profile of their tier too.
 */
export function sandboxProfileFor(outcome: GateOutcome, settings: SandboxSettings): SandboxProfile | null {
	const human = humanDecided(outcome.source);
	if (human && !settings.human) return null;
	return PROFILE_OF_TIER[outcome.action?.tier ?? "privileged"];
}

/**
 * Whether the user exempted this call from the sandbox (`sandbox.exclude`): every command in it matches one of
 * their patterns, as the command's own text (the strict direction, as for allow rules).
 */
export function excludedFromSandbox(outcome: GateOutcome, settings: SandboxSettings): boolean {
	const parts = outcome.action?.parts ?? [];
	return (
		settings.exclude.length > 0 &&
		parts.length > 0 &&
		parts.every((part) => {
			const text = part.command?.text;
			return text !== undefined && settings.exclude.some((pattern) => pattern.test(text));
		})
	);
}

/** Why no sandbox can run here, for a machine that is not Linux. */
const UNSUPPORTED_PLATFORM =
	process.platform === "linux" ? null : `the sandbox runs on Linux only (this is ${process.platform})`;

/**
 * How one allowed call runs: its profile (null: unsandboxed — as a human approved it, or as the user's
 * `sandbox.exclude` says) and, in `network`, the allowlist's way out.
 */
interface Plan {
	readonly profile: SandboxProfile | null;
	readonly excluded?: true;
	readonly network?: AllowlistNetwork;
}

/** The strictest plan: for a call the gate did not see allowed, never unconfined. */
const UNSEEN_CALL: Plan = { profile: "read-only" };

export interface SandboxingOptions {
	readonly agentDir: string;
	readonly kit: BashKit;
	/** Said once, loudly, when the sandbox is on but cannot run here. */
	readonly warn: (message: string) => void;
	/**
	 * Where the bash tool pi runs comes from when it is not ours: another extension registered `bash` first, so
	 * our sandbox never sees its calls. Null while ours runs them.
	 */
	readonly foreignBash: () => string | null;
	readonly probe?: () => Promise<BubblewrapProbe>;
}

/**
 * One session's sandboxed bash: the plans recorded when calls are allowed, used when pi runs them (through the
 * tool `sandboxed-bash-tool.ts` registers).
 */
export class Sandboxing implements BashRunner {
	private readonly plans = new Map<string, Plan>();
	private readonly options: SandboxingOptions;
	/** What was said already: the sandbox as a whole, and the allowlist's network, each once per session. */
	private readonly warnedAbout = new Set<"sandbox" | "session" | "network">();
	/** Set once the sandbox is on for this session: what this machine can do (probed once, in the background). */
	private probing: Promise<BubblewrapProbe> | null = null;
	/** Why this session's bash cannot be sandboxed at all, though the policy turns the sandbox on. */
	private notRunning = "it was turned on after this session started; restart pi";
	/** Set when a bash call meant for our sandbox ran without passing through it. */
	private bypassedBy: string | null = null;
	/** The probe's answer, once it is in. */
	private registered: BubblewrapProbe | null = null;
	/** One proxy per set of allowlists in force, kept until the session ends (a running command may use it). */
	private readonly proxies = new Map<string, Promise<NetworkProxy>>();
	private readonly shells = new Map<string, BashShell>();
	private readonly plainTools = new Map<string, BashTool>();

	constructor(options: SandboxingOptions) {
		this.options = options;
	}

	/**
	 * The sandbox is on for this session (its bash tool is registered): find out in the background whether one
	 * can run here; `ready` resolves with the answer.
	 */
	start(): void {
		if (this.probing !== null) return;
		this.probing = (
			UNSUPPORTED_PLATFORM === null
				? (this.options.probe ?? probeBubblewrap)()
				: Promise.resolve({ usable: false, why: UNSUPPORTED_PLATFORM, fix: null } as const)
		)
			.catch((error: unknown): BubblewrapProbe => ({ usable: false, why: errorMessage(error), fix: null }))
			.then((probe) => {
				this.registered = probe;
				if (!probe.usable) this.warnOnce(probe.fix === null ? probe.why : `${probe.why}; ${probe.fix}`);
				return probe;
			});
	}

	/** Once the probe is in (at once when the sandbox is off in this session). */
	async ready(): Promise<void> {
		await this.probing;
	}

	/** The sandbox is on, but this session keeps pi's own bash tool: say why, once. */
	cannotRun(why: string): void {
		this.notRunning = why;
		this.warnOnce(why, "session");
	}

	/** Whether the sandbox is on in this session and can run, as the policy now asks for it. */
	state(settings: SandboxSettings): SandboxState {
		if (!settings.enabled) return { kind: "off" };
		if (this.probing === null) return { kind: "unavailable", why: this.notRunning, fix: null };
		const bypass = this.bypass();
		if (bypass !== null) return { kind: "unavailable", why: bypass, fix: null };
		const probe = this.registered;
		if (probe === null) return { kind: "probing" };
		return probe.usable
			? { kind: "on", bubblewrap: probe.path }
			: { kind: "unavailable", why: probe.why, fix: probe.fix };
	}

	/** For `sandbox.required`: why a bash call cannot be sandboxed now, or null when it can be or need not be. */
	async missing(settings: SandboxSettings): Promise<string | null> {
		if (!settings.required) return null;
		await this.ready();
		const state = this.state(settings);
		return state.kind === "unavailable" ? `no sandbox can run here: ${state.why}` : null;
	}

	/**
	 * An allowed bash call: the sandbox it will run in, as the audit line records it (undefined while the sandbox
	 * is off: pi's own bash runs it).
	 */
	async allowed(
		toolCallId: string,
		outcome: GateOutcome,
		settings: SandboxSettings,
	): Promise<SandboxRecord | undefined> {
		if (!settings.enabled) {
			this.plans.set(toolCallId, { profile: null });
			return undefined;
		}
		const unsandboxed = this.probing === null ? this.notRunning : this.bypass();
		if (unsandboxed !== null) {
			// pi's own bash, or another extension's, runs it: unsandboxed.
			this.warnOnce(unsandboxed, "session");
			return "unavailable";
		}
		await this.ready();
		const plan = await this.plan(outcome, settings);
		this.plans.set(toolCallId, plan);
		return this.record(plan);
	}

	/**
	 * A bash call has run. If its plan is still here, a tool other than ours ran a call that was to be sandboxed:
	 * it ran unconfined, and so would every later one — from now on the session says no sandbox runs it.
	 */
	finished(toolCallId: string): void {
		const plan = this.plans.get(toolCallId);
		this.plans.delete(toolCallId);
		if (plan?.profile == null || !this.registered?.usable || this.bypassedBy !== null) return;
		this.bypassedBy = "a bash tool other than this gate's ran a command the gate allowed in a sandbox";
		this.warnOnce(this.bypassedBy, "session");
	}

	/** Why a tool other than ours runs this session's bash calls, or null while ours does. */
	private bypass(): string | null {
		if (this.bypassedBy !== null) return this.bypassedBy;
		const source = this.options.foreignBash();
		return source === null ? null : `another extension's bash tool runs its commands (${source})`;
	}

	/**
	 * A command the user typed with `!`, allowed: how it runs. It runs as typed, unless `sandbox.human` puts a
	 * human's commands in the profile of their tier too; then pi's local shell runs it wrapped.
	 */
	async userCommand(
		outcome: GateOutcome,
		settings: SandboxSettings,
		cwd: string,
	): Promise<{ readonly record: SandboxRecord | undefined; readonly operations?: BashOperations }> {
		if (!settings.enabled) return { record: undefined };
		if (this.probing === null) return { record: "unavailable" };
		await this.ready();
		const plan = await this.plan(outcome, settings);
		const record = this.record(plan);
		const hook = this.hookFor(plan, cwd);
		if (hook === null) return { record };
		const local = this.options.kit.createLocalBashOperations();
		return {
			record,
			operations: {
				exec: (command, execCwd, options) => {
					const wrapped = hook({ command, cwd: execCwd, env: options.env ?? process.env });
					return local.exec(wrapped.command, wrapped.cwd, { ...options, env: wrapped.env });
				},
			},
		};
	}

	/** Stop the allowlist proxies (the session ends; its commands end with it). */
	async close(): Promise<void> {
		const proxies = [...this.proxies.values()];
		this.proxies.clear();
		await Promise.all(proxies.map(async (proxy) => (await proxy.catch(() => null))?.close()));
	}

	private async plan(outcome: GateOutcome, settings: SandboxSettings): Promise<Plan> {
		const profile = sandboxProfileFor(outcome, settings);
		if (profile !== null && excludedFromSandbox(outcome, settings)) return { profile: null, excluded: true };
		if (profile !== "network" || settings.networkAllow.length === 0 || !this.registered?.usable)
			return { profile };
		return { profile, network: await this.allowlistNetwork(settings.networkAllow) };
	}

	/**
	 * The way out of a `network` sandbox under `sandbox.network.allow`: the proxy for these lists, or none at all
	 * when no relay can run or the proxy cannot start — an allowlist that cannot be enforced gives no network.
	 */
	private async allowlistNetwork(lists: readonly (readonly string[])[]): Promise<AllowlistNetwork> {
		const socat = findSocat();
		if (socat === null) {
			this.warnOnce("sandbox.network.allow needs socat for its relay, which is not installed", "network");
			return { via: "none" };
		}
		const key = JSON.stringify(lists);
		let proxy = this.proxies.get(key);
		if (proxy === undefined) {
			// Loaded only here: importing node:http as a module makes Node load its whole HTTP client (undici), ~25 ms
			// of CPU that a session without a network allowlist must not pay (adr/0028).
			proxy = import("../sandbox/network-proxy.ts").then((module) => module.NetworkProxy.start(lists));
			this.proxies.set(key, proxy);
		}
		try {
			return { via: "proxy", proxySocket: (await proxy).socketPath, socat };
		} catch (error) {
			this.proxies.delete(key);
			this.warnOnce(`the network proxy could not start (${errorMessage(error)})`, "network");
			return { via: "none" };
		}
	}

	private record(plan: Plan): SandboxRecord {
		if (plan.excluded) return "excluded";
		if (plan.profile === null) return "none";
		return this.registered?.usable ? plan.profile : "unavailable";
	}

	/**
	 * Run one bash call as pi's bash tool does, with the user's shell settings — in the sandbox its plan says.
	 * A call with no plan while the sandbox is on (the gate did not see it allowed) runs read-only.
	 */
	async run(
		toolCallId: string,
		params: { command: string; timeout?: number },
		signal: AbortSignal | undefined,
		onUpdate: Parameters<BashExecute>[3],
		ctx: Parameters<BashExecute>[4],
	): Promise<Awaited<ReturnType<BashExecute>>> {
		await this.ready();
		const plan = this.plans.get(toolCallId) ?? (this.probing === null ? { profile: null } : UNSEEN_CALL);
		this.plans.delete(toolCallId);
		const hook = this.hookFor(plan, ctx.cwd);
		const trusted = ctx.isProjectTrusted();
		const tool = hook
			? this.options.kit.createBashToolDefinition(ctx.cwd, {
					...this.shellFor(ctx.cwd, trusted),
					spawnHook: hook,
				})
			: this.plainToolFor(ctx.cwd, trusted);
		// With the session's context, as pi runs its own: the command gets PI_SESSION_ID and the rest of the
		// session's environment (a pi started by it finds the session that ran it, adr/0008).
		return tool.execute(toolCallId, params, signal, onUpdate, ctx);
	}

	/**
	 * The user's shell settings (`shellCommandPrefix`, `shellPath`), read once per working directory, as pi reads
	 * them for its own bash tool when the session starts, not with both settings files read, parsed and locked at
	 * every call (adr/0028). A project's `.pi/settings.json` counts only while pi trusts the project, as for pi's
	 * own bash: an untrusted checkout must not pick the shell or prefix every command.
	 */
	private shellFor(cwd: string, projectTrusted: boolean): BashShell {
		const key = settingsKey(cwd, projectTrusted);
		let shell = this.shells.get(key);
		if (shell === undefined) {
			const settings = this.options.kit.SettingsManager.create(cwd, this.options.agentDir, {
				projectTrusted,
			});
			const commandPrefix = settings.getShellCommandPrefix();
			const shellPath = settings.getShellPath();
			shell = { ...(commandPrefix ? { commandPrefix } : {}), ...(shellPath ? { shellPath } : {}) };
			this.shells.set(key, shell);
		}
		return shell;
	}

	/** pi's bash tool for calls that run outside the sandbox: one per working directory, as pi keeps one. */
	private plainToolFor(cwd: string, projectTrusted: boolean): BashTool {
		const key = settingsKey(cwd, projectTrusted);
		let tool = this.plainTools.get(key);
		if (tool === undefined) {
			tool = this.options.kit.createBashToolDefinition(cwd, this.shellFor(cwd, projectTrusted));
			this.plainTools.set(key, tool);
		}
		return tool;
	}

	private hookFor(plan: Plan, sessionCwd: string): BashSpawnHook | null {
		const probe = this.registered;
		const { profile } = plan;
		if (probe === null || !probe.usable || profile === null) return null;
		const [homeDir, agentDir] = [homedir(), this.options.agentDir].map(resolvedPath) as [string, string];
		const place = {
			project: realpathSync(sessionCwd),
			keepReadOnly: [homeDir, agentDir],
			agentDir,
			homeDir,
			// Where a dotfiles repository's `~/.bashrc` leads, say: in the project, it stays read-only (adr/0017).
			linkTargets: guardedLinkTargets({ agentDir: this.options.agentDir, homeDir: homedir() }).trees,
		};
		return (spawn) => ({
			...spawn,
			command: sandboxedCommand(spawn.command, profile, { ...place, cwd: spawn.cwd }, probe, plan.network),
		});
	}

	/** Say what is wrong, once per kind of trouble. */
	private warnOnce(why: string, about: "sandbox" | "session" | "network" = "sandbox"): void {
		if (this.warnedAbout.has(about)) return;
		this.warnedAbout.add(about);
		const ask = `set "sandbox": { "required": true } to be asked instead`;
		this.options.warn(
			about === "sandbox"
				? `pi-permission-hub: the sandbox is on, but no sandbox can run here: ${why}; commands run unsandboxed (${ask}).`
				: about === "session"
					? `pi-permission-hub: the sandbox is on, but this session's bash runs unsandboxed: ${why} (${ask}).`
					: `pi-permission-hub: ${why}; commands approved at network-egress run without any network.`,
		);
	}
}

/** Which settings a working directory's shell comes from: with its project's settings file or without. */
function settingsKey(cwd: string, projectTrusted: boolean): string {
	return `${projectTrusted ? "trusted" : "untrusted"}:${cwd}`;
}

/** The real path, or the path as given when it does not exist (nothing can be written there either). */
function resolvedPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}
