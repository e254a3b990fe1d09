/**
 * Running the bash tool in the sandbox its decision calls for (adr/0017). When the policy turns the sandbox on,
 * the session registers its own `bash` tool — pi's, built with the user's shell settings and a spawn hook —
 * and every allowed bash call runs in the profile of the tier it was allowed at, unless a human approved it.
 * Where another tool runs the calls (pi's own, kept for pi-subagents; another extension's), the allowed command
 * itself is rewritten into the sandbox in the `tool_call` handler: pi runs the input object its handlers saw.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { sep } from "node:path";
import type { BashOperations, BashSpawnHook } from "@earendil-works/pi-coding-agent";
import type { SandboxRecord } from "../audit/audit-entry.ts";
import type { ActionPart } from "../classify/action.ts";
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
import { createdPlacesNotice, type PlacesAtStart, placesCreatedSince } from "../sandbox/created-places.ts";
import { DirectoryListings } from "../sandbox/directory-listings.ts";
import type { NetworkProxy } from "../sandbox/network-proxy.ts";
import type { SandboxState } from "../sandbox/sandbox-state.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { Tier } from "../vocabulary/tier.ts";
import type { GateOutcome } from "./gate-outcome.ts";
import type { BashExecute, BashKit, BashRunner } from "./sandboxed-bash-tool.ts";
import { rewriteSealedCommand, sealCommand } from "./sealed-command.ts";

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
 * their patterns, as the command's own text (the strict direction, as for allow rules). A command that starts
 * pi never is: what it loads is not the user's to know from a pattern (adr/0011).
 */
export function excludedFromSandbox(outcome: GateOutcome, settings: SandboxSettings): boolean {
	return partsExcluded(outcome.action?.parts ?? [], settings);
}

function partsExcluded(parts: readonly ActionPart[], settings: SandboxSettings): boolean {
	return (
		settings.exclude.length > 0 &&
		parts.length > 0 &&
		parts.every((part) => {
			const text = part.command?.text;
			return (
				part.startsPi !== true && text !== undefined && settings.exclude.some((pattern) => pattern.test(text))
			);
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

/**
 * A bash call as the gate's `tool_call` handler sees it. pi hands this very input object to the tool that runs
 * the call (a copy of the model's arguments, made per call), so it tells two calls apart where their ids do not.
 */
export interface BashCall {
	readonly toolCallId: string;
	readonly input: Record<string, unknown>;
	readonly cwd: string;
}

/** A plan waiting for its call: only the input object it was made for, holding the same command, may use it. */
interface PlannedCall {
	readonly input: object;
	readonly command: unknown;
	readonly plan: Plan;
}

/** How an allowed call runs: the audit's record of its sandbox, or why it must not run at all. */
export type AllowedBash = { readonly record: SandboxRecord | undefined } | { readonly block: string };

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
	/**
	 * The root's project (adr/0008): a child running elsewhere (`cwd: $HOME`) writes no more than the project;
	 * absent, the session's cwd.
	 */
	readonly projectDir?: () => string;
}

/**
 * One session's sandboxed bash: the plans recorded when calls are allowed, used when pi runs them (through the
 * tool `sandboxed-bash-tool.ts` registers).
 */
export class Sandboxing implements BashRunner {
	private readonly plans = new Map<string, PlannedCall>();
	/** Inputs whose command the gate rewrote into the sandbox, with the command it wrote. */
	private readonly rewritten = new WeakMap<object, string>();
	private readonly options: SandboxingOptions;
	/** What was said already: the sandbox as a whole, and the allowlist's network, each once per session. */
	private readonly warnedAbout = new Set<"sandbox" | "session" | "network">();
	/** Set once the sandbox is on for this session: what this machine can do (probed once, in the background). */
	private probing: Promise<BubblewrapProbe> | null = null;
	/** Why this session's bash cannot be sandboxed at all, though the policy turns the sandbox on. */
	private notRunning = "it was turned on after this session started; restart pi";
	/** Set when a bash call meant for our sandbox ran without passing through it. */
	private bypassedBy: string | null = null;
	/** Why this session's commands are rewritten into the sandbox from the start (pi-subagents needs pi's bash). */
	private rewriteFromStart: string | null = null;
	/** The probe's answer, once it is in. */
	private registered: BubblewrapProbe | null = null;
	/** One proxy per set of allowlists in force, kept until the session ends (a running command may use it). */
	private readonly proxies = new Map<string, Promise<NetworkProxy>>();
	private readonly shells = new Map<string, BashShell>();
	private readonly plainTools = new Map<string, BashTool>();
	/** The places each writable sandboxed run started with, by the input object of its call. */
	private readonly startedWith = new WeakMap<object, PlacesAtStart>();
	/** Listings kept between the searches of this session's runs (directory-listings.ts). */
	private readonly listings = new DirectoryListings();

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

	/**
	 * The sandbox is on, but this session keeps pi's own bash tool (`why`): each allowed command is rewritten into
	 * the sandbox instead. Find out in the background whether one can run here, as `start` does.
	 */
	startRewriting(why: string): void {
		this.rewriteFromStart = why;
		this.start();
	}

	/**
	 * Why a tool other than ours runs this session's bash calls — so the gate rewrites each allowed command into
	 * the sandbox — or null while ours runs them.
	 */
	private rewriteWhy(): string | null {
		if (this.rewriteFromStart !== null) return this.rewriteFromStart;
		if (this.bypassedBy !== null) return this.bypassedBy;
		const source = this.options.foreignBash();
		return source === null ? null : `another extension's bash tool runs its commands (${source})`;
	}

	/** Whether the sandbox is on in this session and can run, as the policy now asks for it. */
	state(settings: SandboxSettings): SandboxState {
		if (!settings.enabled) return { kind: "off" };
		if (this.probing === null)
			return { kind: "unavailable", why: this.notRunning, fix: null, asks: settings.required };
		const rewrite = this.rewriteWhy();
		// Where the gate rewrites commands, a call it cannot put in the sandbox asks (adr/0017).
		const asks = settings.required || rewrite !== null;
		const probe = this.registered;
		if (probe === null) return { kind: "probing" };
		if (!probe.usable) return { kind: "unavailable", why: probe.why, fix: probe.fix, asks };
		return rewrite === null
			? { kind: "on", bubblewrap: probe.path }
			: { kind: "on", bubblewrap: probe.path, rewritten: rewrite };
	}

	/**
	 * Why this bash call cannot be held by the sandbox the policy asks for, so that it must not run without a
	 * human; null when it can be or need not be. Where the gate rewrites commands into the sandbox, a call it cannot
	 * rewrite (no sandbox runs here, or the tool's input has no shell command) asks whatever `sandbox.required`
	 * says: the user never chose to run it unconfined. Elsewhere only `sandbox.required` asks.
	 */
	async missing(settings: SandboxSettings, input: Readonly<Record<string, unknown>>): Promise<string | null> {
		if (!settings.enabled) return null;
		await this.ready();
		const state = this.state(settings);
		const rewrite = this.probing === null ? null : this.rewriteWhy();
		if (rewrite !== null) {
			if (state.kind === "unavailable") return `the sandbox cannot hold this call (${rewrite}): ${state.why}`;
			if (typeof input.command !== "string")
				return `the sandbox cannot hold this call: ${rewrite}, and its input has no shell command to put in the sandbox`;
			return null;
		}
		if (!settings.required) return null;
		return state.kind === "unavailable"
			? `the sandbox is required, but no sandbox can run here: ${state.why}`
			: null;
	}

	/** Whether a call with this id was allowed and has not run yet: another call must not take its plan. */
	pending(toolCallId: string): boolean {
		return this.plans.has(toolCallId);
	}

	/**
	 * Whether a bash call with these parts, allowed without a human, would run in the profile of its tier: the
	 * sandbox on, this session's bash ours, the probe saying one can run, and `sandbox.exclude` not exempting it.
	 */
	async contains(settings: SandboxSettings, parts: readonly ActionPart[]): Promise<boolean> {
		if (!settings.enabled || this.probing === null) return false;
		await this.ready();
		return this.state(settings).kind === "on" && !partsExcluded(parts, settings);
	}

	/**
	 * An allowed bash call: the sandbox it will run in, as the audit line records it (undefined while the sandbox
	 * is off: pi's own bash runs it). Where our tool runs it, the plan waits for this very call; where another tool
	 * does, the command in `call.input` is rewritten here into its sandbox. A second call with the id of one still
	 * waiting is refused: its plan must never go to the other (a model can send two calls with one id).
	 */
	async allowed(call: BashCall, outcome: GateOutcome, settings: SandboxSettings): Promise<AllowedBash> {
		const { toolCallId, input } = call;
		if (this.plans.has(toolCallId)) return { block: duplicateIdReason(toolCallId) };
		if (!settings.enabled) {
			this.plans.set(toolCallId, { input, command: input.command, plan: { profile: null } });
			return { record: undefined };
		}
		if (this.probing === null) {
			// pi's own bash runs it, and nothing rewrites it: the sandbox was turned on after the session started.
			this.warnOnce(this.notRunning, "session");
			return { record: "unavailable" };
		}
		await this.ready();
		const plan = await this.plan(outcome, settings);
		const rewrite = this.rewriteWhy();
		if (rewrite === null) {
			this.plans.set(toolCallId, { input, command: input.command, plan });
			return { record: this.record(plan) };
		}
		const hook = this.hookFor(plan, call.cwd, input);
		// Unsandboxed by the plan (a human's approval, sandbox.exclude), or no sandbox runs: `missing` made a call
		// without a human ask first, so only a human's decision gets here.
		if (hook === null) return { record: this.record(plan) };
		const command = input.command;
		const wrapped = typeof command === "string" ? hook({ command, cwd: call.cwd, env: {} }).command : null;
		if (wrapped === null || !rewriteSealedCommand(input, wrapped)) {
			return {
				block: `pi-permission-hub: the sandbox cannot hold this call (${rewrite}): its command could not be rewritten into the sandbox, so it was not run`,
			};
		}
		this.rewritten.set(input, wrapped);
		return { record: this.record(plan) };
	}

	/**
	 * An allowed bash call was blocked after all (its audit line could not be written): it will not run. Only its
	 * own plan goes, never that of another call with the same id.
	 */
	withdrawn(toolCallId: string, input: object): void {
		if (this.plans.get(toolCallId)?.input === input) this.plans.delete(toolCallId);
	}

	/**
	 * The model's message is done: each of its calls has run or never will (a handler after ours blocked it, the
	 * run was aborted). A plan still here has no call left to take it, and must not make a later call with the same
	 * id look like a duplicate (some providers number their ids per message).
	 */
	turnEnded(): void {
		this.plans.clear();
	}

	/**
	 * A bash call has run (`input`: what the tool ran). If its plan is still here, a tool other than ours ran a
	 * call that was to be sandboxed: it ran unconfined, and so would every later one — from now on the gate
	 * rewrites commands into the sandbox.
	 */
	finished(toolCallId: string, input: unknown): void {
		const planned = this.plans.get(toolCallId);
		if (planned === undefined || planned.input !== input) return;
		this.plans.delete(toolCallId);
		if (planned.plan.profile === null || !this.registered?.usable || this.bypassedBy !== null) return;
		this.bypassedBy = "a bash tool other than this gate's ran a command the gate allowed in a sandbox";
		this.warnOnce(this.bypassedBy, "session");
	}

	/**
	 * Before the gate decides a bash call (and freezes its input): where another tool may run it, make its command
	 * one only the gate can rewrite (sealed-command.ts).
	 */
	seal(input: object): void {
		if (this.probing !== null && this.rewriteWhy() !== null) sealCommand(input);
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
		const hook =
			this.rewritten.get(params) === params.command
				? null
				: this.hookFor(this.planOf(toolCallId, params), ctx.cwd, params);
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
	 * The plan made for this very call: a plan is used only by the input object it was made for, still holding the
	 * command it was made for. A call with no plan while the sandbox is on runs read-only; a call whose id names
	 * another call's plan does not run.
	 */
	private planOf(toolCallId: string, params: { command: string }): Plan {
		const planned = this.plans.get(toolCallId);
		if (planned === undefined) return this.probing === null ? { profile: null } : UNSEEN_CALL;
		if (planned.input !== params || planned.command !== params.command)
			throw new Error(duplicateIdReason(toolCallId));
		this.plans.delete(toolCallId);
		return planned.plan;
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

	/**
	 * A bash call has run: what to say about the places that make later commands run programs which its writable
	 * sandbox did not have when it started (created-places.ts); null when there are none, or the call ran
	 * read-only or unsandboxed.
	 */
	createdNotice(input: unknown): string | null {
		if (typeof input !== "object" || input === null) return null;
		const start = this.startedWith.get(input);
		if (start === undefined) return null;
		this.startedWith.delete(input);
		const created = placesCreatedSince(start);
		return created.length === 0 ? null : createdPlacesNotice(start.search.project, created);
	}

	/** `call`: the input object of the call the hook wraps, under which the places its run starts with are kept. */
	private hookFor(plan: Plan, sessionCwd: string, call?: object): BashSpawnHook | null {
		const probe = this.registered;
		const { profile } = plan;
		if (probe === null || !probe.usable || profile === null) return null;
		const [homeDir, agentDir] = [homedir(), this.options.agentDir].map(resolvedPath) as [string, string];
		const place = {
			project: writableProject(realpathSync(sessionCwd), this.options.projectDir?.()),
			keepReadOnly: [homeDir, agentDir],
			agentDir,
			homeDir,
			// Where a dotfiles repository's `~/.bashrc` leads, say: in the project, it stays read-only (adr/0017).
			linkTargets: guardedLinkTargets({ agentDir: this.options.agentDir, homeDir: homedir() }).trees,
			listings: this.listings,
		};
		const seen = call && ((start: PlacesAtStart) => this.startedWith.set(call, start));
		return (spawn) => ({
			...spawn,
			command: sandboxedCommand(
				spawn.command,
				profile,
				{ ...place, cwd: spawn.cwd },
				probe,
				plan.network,
				seen,
			),
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

/** Why a call is refused whose id is that of another call still waiting to run. */
export function duplicateIdReason(toolCallId: string): string {
	return `pi-permission-hub: another bash call with the id ${JSON.stringify(toolCallId)} is waiting to run; a call must have an id of its own, so this one was not run`;
}

/** Which settings a working directory's shell comes from: with its project's settings file or without. */
/** The directory a project-write command may write: its cwd when that lies in the root's project, else the project. */
function writableProject(cwd: string, projectDir: string | undefined): string {
	if (projectDir === undefined) return cwd;
	const project = realpathSync(projectDir);
	return cwd === project || cwd.startsWith(`${project}${sep}`) ? cwd : project;
}

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
