/**
 * What one session's gate is made of: its hub, policy store, grants, audit, decisions, status line, delegation
 * guard, child names and sandbox, built once at `session_start` and wired to each other here — with the
 * session's permission mode and the latest context pi handed over — so `SessionGate` only adapts pi's events to
 * the pipeline (adr/0002).
 */
import { homedir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { AuditWriter } from "../audit/audit-writer.ts";
import {
	ASK_CLOSED_CHANNEL,
	ASK_OPENED_CHANNEL,
	type AskEventSink,
	publishAsk,
} from "../authority/ask-events.ts";
import { getAuthorizer } from "../authority/authorizer-link.ts";
import { chooseTerminal } from "../authority/choose-terminal.ts";
import { DialogQueue } from "../authority/dialog-queue.ts";
import { SessionGrants } from "../authority/session-grants.ts";
import type { TuiKit } from "../authority/tui-dialog.ts";
import { TypingWatch } from "../authority/typing-watch.ts";
import type { BashParser } from "../classify/bash/bash-parser.ts";
import type { ParkedStore } from "../hub/parked-store.ts";
import { SessionHub } from "../hub/session-hub.ts";
import { nodeFileView } from "../launchers/file-view.ts";
import { promptAgentName } from "../launchers/prompt-agent-name.ts";
import { type Origin, resolveOrigin } from "../origin/origin.ts";
import { managedConfigPath, resolveAgentDir } from "../policy/config-paths.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { createPolicyStore, type PolicyStore } from "../policy/load-policy.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { ChildNames } from "./child-names.ts";
import { FilePlans, foreignFileTool } from "./contained-file-tools.ts";
import { fixDelegation } from "./delegation-fix.ts";
import { DelegationGuard, DelegationWatch } from "./delegation-guard.ts";
import { buildGateDeps, type GateDeps } from "./gate-deps.ts";
import { type BashKit, foreignBashSource } from "./sandboxed-bash-tool.ts";
import { Sandboxing } from "./sandboxing.ts";
import { saveRules } from "./save-rules.ts";
import { SessionDecisions } from "./session-decisions.ts";
import {
	permissionModeFromFlag,
	permissionModeRefusal,
	sessionPermissionMode,
} from "./session-permission-mode.ts";
import { StatusReporter } from "./status-reporter.ts";
import { TreeGrants } from "./tree-grants.ts";

export interface SessionPartsOptions {
	readonly pi: ExtensionAPI;
	readonly ctx: ExtensionContext;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly parked: ParkedStore;
	/** pi-tui as pi provides it (for the TUI dialog). */
	readonly tuiKit: TuiKit;
	/** pi's bash tool as pi provides it (for the sandboxed bash). */
	readonly bashKit: BashKit;
}

export class SessionParts {
	readonly sessionId: string;
	readonly agentDir: string;
	readonly homeDir: string;
	readonly origin: Origin;
	readonly store: PolicyStore;
	readonly grants: SessionGrants;
	/** The whole-tree grants over `grants`, re-checking the asks waiting in `dialogs`. */
	readonly treeGrants: TreeGrants;
	readonly audit: AuditWriter;
	readonly decisions: SessionDecisions;
	readonly dialogs = new DialogQueue();
	readonly status: StatusReporter;
	readonly hub: SessionHub;
	readonly parked: ParkedStore;
	readonly delegations: DelegationGuard;
	readonly delegationWatch: DelegationWatch;
	readonly childNames: ChildNames;
	readonly sandboxing: Sandboxing;
	/** What each allowed read, write and edit may open, from the decision to pi's run of the call. */
	readonly filePlans = new FilePlans();
	/** When the human last pressed a key in pi's terminal (adr/0030); heard from session start on. */
	readonly typingWatch = new TypingWatch();
	/** The latest context pi handed us: dialogs must use the live UI, not the one from session start. */
	ctx: ExtensionContext;
	private readonly pi: ExtensionAPI;
	private readonly options: SessionPartsOptions;
	/** The bash grammar once loaded: the policy store tests the rules' examples with it. */
	private grammar: BashParser | null = null;
	/** The permission mode chosen in this session (flag, command, shortcut); null: the config's `defaultMode`. */
	private chosenMode: PermissionMode | null = null;

	constructor(options: SessionPartsOptions) {
		const { pi, ctx, env } = options;
		this.pi = pi;
		this.options = options;
		this.ctx = ctx;
		this.parked = options.parked;
		this.homeDir = env.HOME || homedir();
		this.sessionId = ctx.sessionManager.getSessionId();
		this.agentDir = resolveAgentDir(env, this.homeDir);
		this.hub = new SessionHub({
			pi,
			sessionId: this.sessionId,
			hasUI: ctx.hasUI,
			agentDir: this.agentDir,
			cwd: ctx.cwd,
			env,
			parked: options.parked,
			sessionFile: ctx.sessionManager.getSessionFile() ?? null,
			promptAgentName: promptAgentName(() => ctx.getSystemPrompt()),
		});
		this.origin = resolveOrigin({ subagent: this.hub.subagent, env, hasUI: ctx.hasUI });
		this.store = createPolicyStore({
			agentDir: this.agentDir,
			cwd: ctx.cwd,
			homeDir: this.homeDir,
			isProjectTrusted: () => ctx.isProjectTrusted(),
			bash: () => this.grammar,
			managedFile: managedConfigPath(env),
		});
		this.grants = new SessionGrants(this.sessionId);
		this.treeGrants = new TreeGrants(this.grants, this.dialogs);
		this.audit = new AuditWriter({
			file: join(this.agentDir, "pi-permission-hub", "audit.jsonl"),
			onFailure: (error) => this.auditFailed(error?.message ?? null, ctx.hasUI),
		});
		this.decisions = new SessionDecisions({
			sessionId: this.sessionId,
			origin: this.origin,
			audit: this.audit,
			events: pi.events,
			permissionMode: (policy) => this.permissionMode(policy),
		});
		this.status = new StatusReporter(ctx);
		this.delegations = new DelegationGuard({
			toolSource: (tool) => pi.getAllTools().find((t) => t.name === tool)?.sourceInfo.path ?? null,
			agentDir: this.agentDir,
			homeDir: this.homeDir,
			env,
			projectTrusted: () => ctx.isProjectTrusted(),
			projectDir: () => this.hub.project,
			files: nodeFileView,
		});
		this.delegationWatch = new DelegationWatch({
			childrenSince: (sinceMs) => this.hub.childrenSince(sinceMs),
			warn: (message) => this.notify(message, "warning"),
			log: (event, details) => this.hub.log.write(event, details),
		});
		this.childNames = new ChildNames({
			pid: process.pid,
			ownShown: this.hub.shown,
			announced: () => this.hub.childrenSince(0) ?? [],
		});
		this.sandboxing = new Sandboxing({
			agentDir: this.agentDir,
			kit: options.bashKit,
			warn: (message) => {
				this.notify(message, "warning");
				this.hub.log.write("sandbox.unavailable", { message });
			},
			foreignBash: () => foreignBashSource(pi.getAllTools()),
			projectDir: () => this.hub.project,
		});
	}

	/**
	 * What the pipeline decides with, once the bash grammar is in. From here on the rules' examples are tested
	 * with it: the status line says at once if one fails.
	 */
	gateDeps(bash: BashParser): GateDeps {
		const { pi, ctx, env, tuiKit } = this.options;
		this.grammar = bash;
		const policy = (): EffectivePolicy => {
			const current = this.store.current();
			this.status.policyChanged(current);
			this.status.sandboxChanged(this.sandboxing.state(current.sandbox));
			this.status.fileToolsChanged(this.uncontainedFileTools());
			return current;
		};
		policy();
		const announce = announceAsk(pi);
		const told = { notify: (message: string, level: "info" | "warning") => this.notify(message, level) };
		return buildGateDeps({
			sessionId: this.sessionId,
			policy,
			bash,
			homeDir: this.homeDir,
			agentDir: this.agentDir,
			annotations: (tool) => pi.getAllTools().find((t) => t.name === tool)?.annotations,
			projectDir: this.hub.project,
			searchPath: process.env.PATH,
			origin: this.origin,
			cwd: ctx.cwd,
			grants: this.grants,
			treeGrants: this.treeGrants,
			parked: this.parked,
			lookupLink: (name) => {
				const link = getAuthorizer(name);
				if (!link) this.status.unregisteredLink(name);
				return link;
			},
			terminal: () => {
				const current = this.store.current();
				return chooseTerminal(this.ctx, {
					hub: this.hub,
					identity: { sessionId: this.sessionId, path: this.hub.path },
					parked: this.parked,
					dialogs: this.dialogs,
					tuiKit,
					announce,
					notify: () => this.store.current().notify,
					terminal: { stream: process.stdout, inTmux: Boolean(env.TMUX) },
					forwardedDialogKeys: current.forwardedDialogKeys,
					typingWatch: this.typingWatch,
					forwardWithUI: current.forwardWithUI,
				});
			},
			// A human is reachable with a UI or through a parent: wait for them; otherwise park the ask.
			humanReachable: ctx.hasUI || this.hub.forwards,
			delegation: (call) => this.delegations.inspect(call),
			fixDelegation: (call, planned) =>
				fixDelegation(call, planned, { ...told, delegations: this.delegations, log: this.hub.log }),
			sandboxMissing: (settings, input) => this.sandboxing.missing(settings, input),
			sandboxContains: (settings, parts) => this.sandboxing.contains(settings, parts),
			foreignFileTool: (tool) => foreignFileTool(pi.getAllTools(), tool),
			saveRules: (save, directory) =>
				saveRules(save, directory, { ...told, agentDir: this.agentDir, log: this.hub.log }),
			permissionMode: (current) => this.permissionMode(current),
		});
	}

	/** The session's permission mode now, under `policy` (adr/0023, the managed clamp of adr/0024). */
	permissionMode(policy: EffectivePolicy = this.store.current()): PermissionMode {
		return sessionPermissionMode(this.chosenMode, policy);
	}

	/** Switch this session's permission mode (`/permissions mode`, the shortcut); why not, when the managed layer forbids it. */
	setPermissionMode(mode: PermissionMode): string | null {
		const refused = permissionModeRefusal(mode, this.store.current());
		if (refused !== null) return refused;
		this.chosenMode = mode;
		this.status.permissionModeChanged(mode);
		this.hub.log.write("gate.permission_mode", { mode });
		return null;
	}

	/** `--permission-mode` as given (undefined when not), said to the human when it does not hold as given. */
	chooseModeFromFlag(value: boolean | string | undefined): void {
		const flag = permissionModeFromFlag(value, this.store.current());
		this.chosenMode = flag.chosen;
		if (flag.warning !== null) this.warnHuman(flag.warning, this.ctx.hasUI);
	}

	/** Why the write or edit tool pi runs is not the gate's (its calls then ask), or null while both are. */
	uncontainedFileTools(): string | null {
		const tools = this.pi.getAllTools();
		return foreignFileTool(tools, "write") ?? foreignFileTool(tools, "edit");
	}

	/** Tell the human, if the session still has its UI (a replaced session has none). */
	notify(message: string, level: "info" | "warning"): void {
		try {
			this.ctx.ui.notify(message, level);
		} catch {
			// The UI is gone: the hub log has it.
		}
	}

	/**
	 * The audit log stopped (or resumed) taking lines: every allowed call is blocked meanwhile, and the human must
	 * hear why where they look — the status line and a warning with a UI, stderr without one — once per change.
	 */
	private auditFailed(message: string | null, hasUI: boolean): void {
		this.status.auditFailed(message);
		if (message === null) return;
		this.warnHuman(
			`pi-permission-hub: the audit log ${message}; every allowed call is blocked until it can be written (fail closed). Fix it and go on: nothing needs a restart.`,
			hasUI,
		);
	}

	/** A warning the human must see where they look: the UI, or stderr without one (print and JSON mode). */
	private warnHuman(text: string, hasUI: boolean): void {
		if (hasUI) this.notify(text, "warning");
		else process.stderr.write(`${text}\n`);
	}
}

/** Each dialog's opening and closing, for other extensions: process-wide and on pi's bus (adr/0020). */
function announceAsk(pi: ExtensionAPI): AskEventSink {
	return (event) => {
		publishAsk(event);
		try {
			pi.events.emit(event.phase === "opened" ? ASK_OPENED_CHANNEL : ASK_CLOSED_CHANNEL, event);
		} catch {
			// pi's bus isolates its handlers; this only keeps a dialog from failing if the bus itself is gone.
		}
	};
}
