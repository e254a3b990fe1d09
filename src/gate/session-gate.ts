import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
	BeforeAgentStartEvent,
	BeforeAgentStartEventResult,
	ExtensionAPI,
	ExtensionContext,
	ToolCallEvent,
	ToolCallEventResult,
	UserBashEvent,
	UserBashEventResult,
} from "@earendil-works/pi-coding-agent";
import type { SandboxRecord } from "../audit/audit-entry.ts";
import { AuditWriter } from "../audit/audit-writer.ts";
import {
	ASK_CLOSED_CHANNEL,
	ASK_OPENED_CHANNEL,
	type AskEventSink,
	publishAsk,
} from "../authority/ask-events.ts";
import { getAuthorizer } from "../authority/authorizer-link.ts";
import { chooseTerminal, dialogPresenter, terminalRoute } from "../authority/choose-terminal.ts";
import { DialogQueue } from "../authority/dialog-queue.ts";
import { SessionGrants } from "../authority/session-grants.ts";
import type { RulesToSave } from "../authority/terminal-authorizer.ts";
import type { TuiKit } from "../authority/tui-dialog.ts";
import { TypingWatch } from "../authority/typing-watch.ts";
import { visibleText } from "../authority/visible-text.ts";
import type { ToolCall } from "../classify/action.ts";
import { type BashParser, loadBashParser } from "../classify/bash/bash-parser.ts";
import type { ToolAnnotations } from "../classify/classify-action.ts";
import { ParkedStore, type UnusableAnswer, unusableText } from "../hub/parked-store.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import { SessionHub } from "../hub/session-hub.ts";
import { nodeFileView } from "../launchers/file-view.ts";
import { identifyLauncher, type KnownLauncher, launcherDescription } from "../launchers/known-launcher.ts";
import { gatePackageAt } from "../launchers/package-manifest.ts";
import {
	type PlannedChange,
	SettingsWriteError,
	writeSettingsChanges,
} from "../launchers/settings-change.ts";
import type { Origin } from "../origin/origin.ts";
import { resolveOrigin } from "../origin/origin.ts";
import { refreshSchemaCopies } from "../policy/config-json-schema.ts";
import { managedConfigPath, resolveAgentDir, userConfigPath } from "../policy/config-paths.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { createPolicyStore, type PolicyStore } from "../policy/load-policy.ts";
import {
	addRules,
	everywherePattern,
	removeSavedRule,
	rulesToSave,
	type SavedRuleRef,
} from "../policy/saved-rules.ts";
import { capSourceText } from "../provenance/decision-source.ts";
import { exitStatusFlag, permissionModeFlag } from "../slash-command/permission-mode-controls.ts";
import { publishPermissionsView } from "../slash-command/permissions-command.ts";
import {
	type PermissionsSnapshot,
	permissionsReport,
	type ReportLine,
} from "../slash-command/permissions-report.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import {
	isPermissionMode,
	PERMISSION_MODE_FLAG,
	PERMISSION_MODES,
	type PermissionMode,
	PLAN_MODE_PROMPT,
} from "../vocabulary/permission-mode.ts";
import { auditFailedReason, describeCall } from "./block-reason.ts";
import { ChildNames } from "./child-names.ts";
import {
	FilePlans,
	type FileToolKit,
	filePlanOf,
	foreignFileTool,
	isContainedFileTool,
	plannedFile,
	publishFilePlans,
	registerContainedFileTools,
} from "./contained-file-tools.ts";
import {
	DECISION_EVENT_CHANNEL,
	type DecisionEvent,
	type DecisionRecord,
	type DecisionSinks,
	recordDecision,
} from "./decision-events.ts";
import { DelegationGuard, DelegationWatch } from "./delegation-guard.ts";
import { ForwardedAsks } from "./forwarded-asks.ts";
import { type DelegationFixResult, type GateDeps, sessionClassifier } from "./gate-deps.ts";
import type { GateOutcome } from "./gate-outcome.ts";
import { toolsForRun } from "./hidden-tools.ts";
import { GatePipeline } from "./pipeline.ts";
import { createPolicyQuery, publishPolicyQuery } from "./policy-query.ts";
import {
	type BashKit,
	foreignBashSource,
	publishBashRunner,
	registerSandboxedBash,
} from "./sandboxed-bash-tool.ts";
import { duplicateIdReason, Sandboxing } from "./sandboxing.ts";
import { StatusReporter } from "./status-reporter.ts";
import { TreeGrants } from "./tree-grants.ts";

const RECENT_DECISIONS = 20;

export interface SessionGateOptions {
	readonly pi: ExtensionAPI;
	readonly ctx: ExtensionContext;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly parked: ParkedStore;
	/** pi-tui as pi provides it (for the TUI dialog). */
	readonly tuiKit: TuiKit;
	/** pi's bash tool as pi provides it (for the sandboxed bash). */
	readonly bashKit: BashKit;
	/** pi's file tools as pi provides them (for the contained read, write and edit). */
	readonly fileKit: FileToolKit;
}

/**
 * Everything one pi session needs to gate its calls, built at `session_start`. The bash grammar loads in
 * the background from here, so the first tool call does not pay for it unless it comes at once.
 */
export class SessionGate {
	readonly sessionId: string;
	readonly agentDir: string;
	readonly origin: Origin;
	readonly store: PolicyStore;
	readonly grants: SessionGrants;
	readonly audit: AuditWriter;
	readonly dialogs = new DialogQueue();
	readonly status: StatusReporter;
	readonly hub: SessionHub;
	private readonly parked: ParkedStore;
	private readonly closing = new AbortController();
	private readonly pi: ExtensionAPI;
	private readonly bashKit: BashKit;
	private readonly tuiKit: TuiKit;
	private readonly fileKit: FileToolKit;
	/** What each allowed read, write and edit may open, from the decision to pi's run of the call. */
	private readonly filePlans = new FilePlans();
	private readonly unpublishFiles: () => void;
	private readonly deps: Promise<GateDeps>;
	private readonly pipeline: GatePipeline;
	private readonly forwarded: ForwardedAsks;
	private readonly unpublishQuery: () => void;
	private readonly unpublishView: () => void;
	private readonly unpublishBash: () => void;
	/** The last decisions, newest last, for `/permissions`. */
	private readonly recent: DecisionEvent[] = [];
	/** This session's own calls that were blocked, for the line a run without a UI prints at its end. */
	private readonly blocked = new BlockedCalls();
	private readonly sinks: DecisionSinks;
	private readonly delegations: DelegationGuard;
	private readonly delegationWatch: DelegationWatch;
	private readonly childNames: ChildNames;
	private readonly sandboxing: Sandboxing;
	private readonly unsubscribeToolResult: () => void;
	private readonly unsubscribeTurnEnd: () => void;
	/** When the human last pressed a key in pi's terminal (adr/0030); heard from session start on. */
	private readonly typingWatch = new TypingWatch();
	private readonly unsubscribeKeys: () => void;
	/** The permission mode chosen in this session (flag, command, shortcut); null: the config's `defaultMode`. */
	private chosenMode: PermissionMode | null = null;

	constructor(options: SessionGateOptions) {
		const { pi, ctx, env } = options;
		this.pi = pi;
		this.bashKit = options.bashKit;
		this.tuiKit = options.tuiKit;
		this.fileKit = options.fileKit;
		const homeDir = env.HOME || homedir();
		this.sessionId = ctx.sessionManager.getSessionId();
		this.agentDir = resolveAgentDir(env, homeDir);
		this.parked = options.parked;
		this.hub = new SessionHub({
			pi,
			sessionId: this.sessionId,
			hasUI: ctx.hasUI,
			agentDir: this.agentDir,
			cwd: ctx.cwd,
			env,
			parked: options.parked,
			sessionFile: ctx.sessionManager.getSessionFile() ?? null,
			promptAgentName: promptAgentName(ctx),
		});
		this.origin = resolveOrigin({ subagent: this.hub.subagent, env, hasUI: ctx.hasUI });
		const identity = { sessionId: this.sessionId, path: this.hub.path };
		let grammar: BashParser | null = null;
		this.store = createPolicyStore({
			agentDir: this.agentDir,
			cwd: ctx.cwd,
			homeDir,
			isProjectTrusted: () => ctx.isProjectTrusted(),
			bash: () => grammar,
			managedFile: managedConfigPath(env),
		});
		this.grants = new SessionGrants(this.sessionId);
		this.audit = new AuditWriter({
			file: join(this.agentDir, "pi-permission-hub", "audit.jsonl"),
			onFailure: (error) => this.auditFailed(error?.message ?? null, ctx.hasUI),
		});
		this.sinks = {
			audit: this.audit,
			emit: (event) => {
				this.recent.push(event);
				if (this.recent.length > RECENT_DECISIONS) this.recent.shift();
				pi.events.emit(DECISION_EVENT_CHANNEL, event);
			},
		};
		this.status = new StatusReporter(ctx);
		const announceAsk: AskEventSink = (event) => {
			publishAsk(event);
			try {
				pi.events.emit(event.phase === "opened" ? ASK_OPENED_CHANNEL : ASK_CLOSED_CHANNEL, event);
			} catch {
				// pi's bus isolates its handlers; this only keeps a dialog from failing if the bus itself is gone.
			}
		};
		const annotations = (tool: string): ToolAnnotations | undefined =>
			pi.getAllTools().find((t) => t.name === tool)?.annotations;
		this.delegations = new DelegationGuard({
			toolSource: (tool) => pi.getAllTools().find((t) => t.name === tool)?.sourceInfo.path ?? null,
			agentDir: this.agentDir,
			homeDir,
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
		// Registered here, not in the factory: only the copy that gates this session watches its delegations.
		this.unsubscribeToolResult = pi.on("tool_result", (event) => {
			this.delegationWatch.finished(event.toolCallId, event.isError);
			this.childNames.delegationFinished(event.toolCallId, Date.now());
			if (isContainedFileTool(event.toolName)) this.filePlans.finished(event.toolCallId);
			if (event.toolName !== "bash") return;
			this.sandboxing.finished(event.toolCallId, event.input);
			// A run that made a repository (or .pi/, .agents/) is said to the human and to the model (adr/0017).
			const created = this.sandboxing.createdNotice(event.input);
			if (created === null) return;
			this.notify(created, "warning");
			this.hub.log.write("sandbox.created", { toolCallId: event.toolCallId, notice: created });
			return { content: [...event.content, { type: "text" as const, text: `\n${created}` }] };
		});
		this.unsubscribeTurnEnd = pi.on("turn_end", () => {
			this.sandboxing.turnEnded();
			this.filePlans.clear();
		});
		const policy = (): EffectivePolicy => {
			const current = this.store.current();
			this.status.policyChanged(current);
			this.status.sandboxChanged(this.sandboxing.state(current.sandbox));
			this.status.fileToolsChanged(this.uncontainedFileTools());
			return current;
		};
		const treeGrants = new TreeGrants(this.grants, this.dialogs);
		this.deps = loadBashParser().then((bash) => {
			grammar = bash;
			// The rules' examples are tested from here on: the status line says at once if one fails.
			policy();
			const classify = sessionClassifier(
				bash,
				homeDir,
				this.agentDir,
				annotations,
				(call) => {
					const found = this.delegations.inspect(call);
					return (
						found && {
							launcher: launcherText(found.launcher),
							gated: found.verdict.gated,
							uncontained: found.uncontained,
						}
					);
				},
				this.hub.project,
				process.env.PATH,
			);
			return {
				sessionId: this.sessionId,
				policy,
				classify,
				grants: this.grants,
				treeGrants,
				parked: options.parked,
				lookupLink: (name: string) => {
					const link = getAuthorizer(name);
					if (!link) this.status.unregisteredLink(name);
					return link;
				},
				policyQuery: createPolicyQuery({
					policy,
					classify,
					grants: this.grants,
					parked: options.parked,
					origin: this.origin,
					cwd: ctx.cwd,
				}),
				terminal: () => {
					const current = this.store.current();
					return chooseTerminal(this.currentCtx, {
						hub: this.hub,
						identity,
						parked: this.parked,
						dialogs: this.dialogs,
						tuiKit: options.tuiKit,
						announce: announceAsk,
						notify: () => this.store.current().notify,
						terminal: { stream: process.stdout, inTmux: Boolean(env.TMUX) },
						forwardedDialogKeys: current.forwardedDialogKeys,
						typingWatch: this.typingWatch,
						forwardWithUI: current.forwardWithUI,
					});
				},
				// A human is reachable with a UI or through a parent: wait for them; otherwise park the ask.
				defaultUnanswered: ctx.hasUI || this.hub.forwards ? "wait" : "defer",
				delegation: (call: ToolCall) => this.delegations.inspect(call),
				fixDelegation: (call: ToolCall, planned: PlannedChange) => this.fixDelegation(call, planned),
				sandboxMissing: (settings, input) => this.sandboxing.missing(settings, input),
				sandboxContains: (settings, parts) => this.sandboxing.contains(settings, parts),
				uncontainedFileTool: (tool: string) =>
					tool === "write" || tool === "edit" ? foreignFileTool(pi.getAllTools(), tool) : null,
				saveRules: (save: RulesToSave, directory: string) => this.saveRules(save, directory),
				permissionMode: (current: EffectivePolicy) => this.permissionMode(current),
			};
		});
		// Every call awaits `deps` and fails closed on a rejection; this only keeps it from being unhandled.
		this.deps.catch(() => undefined);
		this.pipeline = new GatePipeline(this.deps, this.origin);
		this.forwarded = new ForwardedAsks({
			sessionId: this.sessionId,
			pipeline: this.pipeline,
			parked: options.parked,
			sinks: this.sinks,
			dialogs: this.dialogs,
			treeGrants,
			log: this.hub.log,
			warn: (message) => this.notify(message, "warning"),
			onPendingChange: (askers, parked) => this.status.pendingAsks(askers, parked),
			shownFor: (request) => this.childNames.shownFor(request),
			permissionMode: (current) => this.permissionMode(current ?? undefined),
		});
		this.unpublishView = publishPermissionsView(this.sessionId, this);
		this.unpublishBash = publishBashRunner(this.sessionId, this.sandboxing);
		this.unpublishFiles = publishFilePlans(this.sessionId, this.filePlans);
		this.unpublishQuery = publishPolicyQuery(this.sessionId, {
			decide: async (call) => (await this.deps).policyQuery.decide(call),
		});
		this.currentCtx = ctx;
		this.unsubscribeKeys = watchKeys(ctx, this.typingWatch);
		this.status.policyChanged(this.store.current());
		this.chooseModeFromFlag(permissionModeFlag(), ctx.hasUI);
		this.status.permissionModeChanged(this.permissionMode());
	}

	/**
	 * `--permission-mode`: a value that names no mode must not leave the session wider than meant, so it
	 * starts in `plan` (the narrowest) and says why.
	 */
	private chooseModeFromFlag(value: boolean | string | undefined, hasUI: boolean): void {
		if (value === undefined || value === "") return;
		if (isPermissionMode(value)) {
			this.chosenMode = value;
			if (this.permissionMode() !== value) {
				this.warnHuman(
					`pi-permission-hub: --${PERMISSION_MODE_FLAG} ${value} is not allowed by the managed config; this session is in ${this.permissionMode()} mode.`,
					hasUI,
				);
			}
			return;
		}
		this.chosenMode = "plan";
		this.warnHuman(
			`pi-permission-hub: --${PERMISSION_MODE_FLAG} ${String(value)} names no mode (${PERMISSION_MODES.join(", ")}); this session starts in plan mode instead.`,
			hasUI,
		);
	}

	/**
	 * Open the inbox this session serves (when it has a UI or relays for a parent), so children spawned from
	 * the first tool call on find it; then offer asks parked earlier in this project to the human.
	 */
	async start(hasUI: boolean): Promise<void> {
		const { sandbox } = this.store.current();
		if (!this.piSubagentsRuns()) registerContainedFileTools(this.pi, this.fileKit, this.agentDir);
		this.status.fileToolsChanged(this.uncontainedFileTools());
		if (sandbox.enabled) this.startSandbox();
		// Said as soon as the probe is in; it runs while the session starts.
		void this.sandboxing.ready().then(() => this.showSandboxState());
		await this.hub.serve({
			decide: (ask) => this.forwarded.serve(ask),
			undelivered: (request, why) =>
				this.notify(
					`pi-permission-hub: your answer to ${request.tool}: ${visibleText(request.preview.slice(0, 80))} could not be sent to the subagent (${why}); it was told nobody could answer, and the call did not run.`,
					"warning",
				),
		});
		if (this.hub.parent.kind !== "child") this.refreshSchemas();
		if (hasUI && !this.hub.forwards) {
			const requests = this.hub.parkedForThisProject().map((e) => e.request);
			this.reportUnusableParkedAnswers();
			const timeoutMs = this.store.current().dialogTimeoutSeconds * 1000;
			const presenter = dialogPresenter(this.currentCtx, {
				tuiKit: this.tuiKit,
				forwardedDialogKeys: this.store.current().forwardedDialogKeys,
				typingWatch: this.typingWatch,
			});
			this.forwarded.offerParked(requests, presenter, timeoutMs, this.closing.signal);
		}
	}

	/**
	 * The status line's sandbox part once the probe is in. The run may have ended meanwhile (a `pi -p` that
	 * needed no tool; an in-process child session its launcher disposed): pi then refuses every use of this
	 * session's `pi`, and nothing is left to show it to. An error here would leave the gate uncaught and end pi
	 * with a stack trace, so it is only logged.
	 */
	private showSandboxState(): void {
		if (this.closing.signal.aborted) return;
		try {
			this.status.sandboxChanged(this.sandboxing.state(this.store.current().sandbox));
		} catch (error) {
			this.hub.log.write("gate.status_failed", { error: errorMessage(error) });
		}
	}

	/**
	 * Run this session's bash through the sandbox: pi's bash tool, registered again with a spawn hook — unless
	 * pi-subagents runs in this session. It gives its in-process children only the tools it sees as pi's own
	 * (built in), so a registered `bash` would leave them without one (their own gates sandbox their commands);
	 * pi's own bash runs the root's calls, and the gate rewrites each allowed command into the sandbox.
	 */
	private startSandbox(): void {
		if (this.piSubagentsRuns()) {
			this.sandboxing.startRewriting(
				"pi-subagents runs in this session and needs pi's own bash tool for its children",
			);
			return;
		}
		registerSandboxedBash(this.pi, this.bashKit);
		this.sandboxing.start();
	}

	/**
	 * Whether pi-subagents runs in this session: it gives its in-process children only the tools it sees as pi's
	 * own, so the gate registers none of its own there (bash, read, write, edit; adr/0017). The session's write
	 * and edit calls then ask a human (adr/0014).
	 */
	private piSubagentsRuns(): boolean {
		const subagent = this.pi.getAllTools().find((tool) => tool.name === "subagent");
		const launcher =
			subagent &&
			identifyLauncher({ name: subagent.name, sourcePath: subagent.sourceInfo.path }, nodeFileView);
		return launcher?.kind === "pi-subagents";
	}

	/**
	 * "Add the gate to <file> and continue": the settings change the dialog offered, as planned when the call was
	 * checked, written by the writer `doctor --fix` uses (only while the file still holds the text it was planned
	 * from), then the call checked again.
	 */
	private fixDelegation(call: ToolCall, planned: PlannedChange): DelegationFixResult {
		const { file, key } = planned.change;
		try {
			writeSettingsChanges([planned], nodeFileView);
		} catch (error) {
			const reason = error instanceof SettingsWriteError ? error.message : errorMessage(error);
			this.hub.log.write("delegation.fix_failed", { file, reason });
			return { gated: false, reason: `the change to ${file} could not be written: ${reason}` };
		}
		this.hub.log.write("delegation.fixed", { file, key });
		this.notify(`pi-permission-hub: added the gate to ${file} (${key}).`, "info");
		const after = this.delegations.recheck(call);
		if (after === null || !after.verdict.gated) {
			const why = after && !after.verdict.gated ? after.verdict.why : "the call is no longer a delegation";
			return {
				gated: false,
				reason: `after the change to ${file} the subagent would still run ungated (${why})`,
			};
		}
		return { gated: true, file, via: after.verdict.via };
	}

	/** Write the rules a human saved from a dialog into their user config (adr/0018), and say what happened. */
	private async saveRules(save: RulesToSave, directory: string): Promise<void> {
		const file = userConfigPath(this.agentDir);
		const rules = rulesToSave({
			verdict: save.verdict,
			directory: save.where === "project" ? directory : null,
			patterns:
				save.where === "project"
					? save.suggestions
					: save.suggestions.map((approved) => everywherePattern(approved, directory)),
			savedAt: new Date().toISOString(),
		});
		const what = rules.map((r) => `${r.action} ${r.surface} "${r.pattern}"`).join(", ");
		const where = save.where === "project" ? `in ${directory}` : "everywhere";
		try {
			await addRules(file, rules);
			this.notify(`pi-permission-hub: saved ${what} ${where} (${file})`, "info");
			this.hub.log.write("rules.saved", { file, rules });
		} catch (error) {
			const message = `pi-permission-hub: could not save ${what}: ${errorMessage(error)}; it holds for this session only`;
			this.notify(message, "warning");
			this.hub.log.write("rules.save_failed", { file, message });
		}
	}

	/**
	 * Parked asks of this project whose answer file this version never uses (a newer version's, one for another
	 * request or action) are not offered again (no other answer can be recorded), and not approvals here: the
	 * human hears why they stay as they are.
	 */
	private reportUnusableParkedAnswers(): void {
		const lines = this.hub
			.parkedWithUnusableAnswer()
			.map(({ request, answer }) => `  ${parkedUnreadableLine(request, answer)}`);
		if (lines.length === 0) return;
		this.notify(
			[
				`pi-permission-hub: ${lines.length === 1 ? "a parked ask" : `${lines.length} parked asks`} of this project:`,
				...lines,
			].join("\n"),
			"warning",
		);
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

	/** Tell the human, if the session still has its UI (a replaced session has none). */
	private notify(message: string, level: "info" | "warning"): void {
		try {
			this.currentCtx.ui.notify(message, level);
		} catch {
			// The UI is gone: the hub log has it.
		}
	}

	/** The JSON Schemas next to the user config, for `"$schema": "./config.schema.json"`; in the background. */
	private refreshSchemas(): void {
		const root = gatePackageAt(fileURLToPath(import.meta.url), nodeFileView)?.root;
		if (root === undefined) return;
		refreshSchemaCopies(this.agentDir, root).catch((error: unknown) =>
			this.hub.log.write("gate.schema_copy_failed", { error: String(error) }),
		);
	}

	/** The latest context pi handed us: dialogs must use the live UI, not the one from session start. */
	private currentCtx: ExtensionContext;

	/** Tools this gate took out of the run, to give back when their deny rule goes. */
	private hiddenTools: ReadonlySet<string> = new Set();

	async onToolCall(event: ToolCallEvent, ctx: ExtensionContext): Promise<ToolCallEventResult | undefined> {
		this.currentCtx = ctx;
		const started = performance.now();
		const startedAt = Date.now();
		const input = event.input;
		// Taken before the sandbox may rewrite the command: the audit names what the model asked for.
		const preview = JSON.stringify(input).slice(0, 300);
		const pendingPlan =
			event.toolName === "bash"
				? this.sandboxing.pending(event.toolCallId)
				: isContainedFileTool(event.toolName) && this.filePlans.pending(event.toolCallId);
		if (pendingPlan) {
			// Never decided: no human is asked about a call that could not run as they decided (adr/0017).
			const refused = this.record(
				duplicateIdOutcome(event.toolCallId),
				"tool_call",
				event.toolName,
				preview,
				started,
				null,
			);
			return { block: true, reason: refused.reason };
		}
		if (event.toolName === "bash") this.sandboxing.seal(input);
		const call: ToolCall = { tool: event.toolName, input, cwd: ctx.cwd };
		const { outcome: decided, policy } = await this.pipeline.run({
			kind: "tool_call",
			call,
			signal: ctx.signal,
		});
		const bash =
			decided.outcome === "allow" && event.toolName === "bash" && policy !== null
				? await this.sandboxing.allowed(
						{ toolCallId: event.toolCallId, input, cwd: ctx.cwd },
						decided,
						policy.sandbox,
					)
				: undefined;
		const outcome = bash && "block" in bash ? sandboxBlockOutcome(decided, bash.block) : decided;
		const sandbox = bash && "record" in bash ? bash.record : undefined;
		const file = this.planFileTool(event, outcome);
		const recorded = this.record(
			outcome,
			"tool_call",
			event.toolName,
			preview,
			started,
			policy,
			sandbox,
			file,
		);
		if (recorded.outcome !== "allow") this.filePlans.set(event.toolCallId, null);
		if (recorded.outcome === "allow") {
			// Already worked out while deciding (cached per call), so this reads no files again.
			const delegation = this.delegations.inspect(call);
			if (delegation) {
				this.delegationWatch.started(event.toolCallId, event.toolName, delegation, startedAt);
				if (delegation.call.launches && delegation.call.foreground)
					this.childNames.delegationStarted(event.toolCallId, delegation.call.tasks, startedAt);
			}
			return undefined;
		}
		if (event.toolName === "bash") this.sandboxing.withdrawn(event.toolCallId, input);
		return { block: true, reason: recorded.reason };
	}

	/** Why the write or edit tool pi runs is not the gate's (its calls then ask), or null while both are. */
	private uncontainedFileTools(): string | null {
		const tools = this.pi.getAllTools();
		return foreignFileTool(tools, "write") ?? foreignFileTool(tools, "edit");
	}

	/**
	 * An allowed read, write or edit: what the gate's tool may open when pi runs it (adr/0014), and the real path
	 * of the file it opens, for the audit line (undefined when the tool pi runs is not the gate's).
	 */
	private planFileTool(event: ToolCallEvent, outcome: GateOutcome): string | undefined {
		const tool = event.toolName;
		if (!isContainedFileTool(tool)) return undefined;
		if (outcome.outcome !== "allow" || foreignFileTool(this.pi.getAllTools(), tool) !== null) {
			this.filePlans.set(event.toolCallId, null);
			return undefined;
		}
		const plan = filePlanOf(tool, outcome);
		this.filePlans.set(event.toolCallId, plan);
		return plannedFile(outcome.action, plan);
	}

	async onUserBash(event: UserBashEvent, ctx: ExtensionContext): Promise<UserBashEventResult | undefined> {
		this.currentCtx = ctx;
		const started = performance.now();
		const { outcome, policy } = await this.pipeline.run({
			kind: "user_bash",
			command: event.command,
			cwd: event.cwd,
		});
		const run =
			outcome.outcome === "allow" && policy !== null
				? await this.sandboxing.userCommand(outcome, policy.sandbox, event.cwd)
				: undefined;
		const recorded = this.record(
			outcome,
			"user_bash",
			"bash",
			event.command.slice(0, 300),
			started,
			policy,
			run?.record,
		);
		if (recorded.outcome === "allow") return run?.operations ? { operations: run.operations } : undefined;
		return { result: { output: `${recorded.reason}\n`, exitCode: 1, cancelled: false, truncated: false } };
	}

	/** Tools a deny rule forbids outright are taken away before the model can waste a turn on them. */
	onBeforeAgentStart(event: BeforeAgentStartEvent): BeforeAgentStartEventResult | undefined {
		const next = toolsForRun(this.pi.getActiveTools(), this.hiddenTools, this.store.current());
		this.hiddenTools = next.hidden;
		if (next.tools) {
			// Both: pi takes an edited `selectedTools` only when it differs from its base list, which still holds a
			// tool hidden earlier — giving one back needs the live loadout. The edit keeps handlers after ours
			// from seeing (and passing on) the hidden tools.
			this.pi.setActiveTools(next.tools);
			event.systemPromptOptions.selectedTools = next.tools;
		}
		// The model is told, so it plans instead of trying changes one refusal at a time.
		return this.permissionMode() === "plan"
			? { systemPrompt: `${event.systemPrompt}\n\n${PLAN_MODE_PROMPT}` }
			: undefined;
	}

	/**
	 * The session's permission mode now: the one chosen here, else the user config's `defaultMode` — within what
	 * the managed layer allows (adr/0024): a mode it forbids gives way to `default`, or to the first it allows.
	 */
	permissionMode(policy: EffectivePolicy = this.store.current()): PermissionMode {
		const wanted = this.chosenMode ?? policy.defaultMode ?? "default";
		const allowed = policy.allowedModes;
		if (allowed === null || allowed.includes(wanted)) return wanted;
		return allowed.includes("default") ? "default" : (allowed[0] ?? "default");
	}

	/** Switch this session's permission mode (`/permissions mode`, the shortcut); why not, when the managed layer forbids it. */
	setPermissionMode(mode: PermissionMode): string | null {
		const allowed = this.store.current().allowedModes;
		if (allowed !== null && !allowed.includes(mode)) {
			return `the managed config allows only ${allowed.join(", ")}`;
		}
		this.chosenMode = mode;
		this.status.permissionModeChanged(mode);
		this.hub.log.write("gate.permission_mode", { mode });
		return null;
	}

	removeSavedRule(rule: SavedRuleRef): Promise<void> {
		return removeSavedRule(rule);
	}

	/** What `/permissions` shows. */
	report(): readonly ReportLine[] {
		return permissionsReport(this.snapshot());
	}

	private snapshot(): PermissionsSnapshot {
		const policy = this.store.current();
		const { parent } = this.hub;
		const route = terminalRoute(parent.kind, this.currentCtx.hasUI, policy.forwardWithUI);
		const ownUI = "this session's own UI";
		const reach =
			parent.kind === "child"
				? `through parent session ${parent.parent.sessionId} (${parent.parent.location}, found via ${parent.parent.via})${route === "parent-then-local" ? `; ${ownUI} when the parent cannot be asked` : ""}`
				: parent.kind === "orphan"
					? route === "local-for-orphan"
						? `${ownUI} (${parent.why})`
						: `nobody: ${parent.why}`
					: this.currentCtx.hasUI
						? ownUI
						: "nobody (no UI and no parent): asks are parked or refused";
		return {
			sessionId: this.sessionId,
			origin: this.origin,
			reach,
			inbox: this.hub.serving?.root ?? null,
			policy,
			links: policy.authorizerChain.map((name) => ({ name, registered: getAuthorizer(name) !== undefined })),
			pending: this.dialogs.pending().map((item) => item.label ?? item.id),
			parkedUnreadable: this.hub
				.parkedWithUnusableAnswer()
				.map(({ request, answer }) => parkedUnreadableLine(request, answer)),
			children: this.hub.children().map((child) => ({
				label: this.childNames.labelOf(child).join(" ← "),
				where: `${child.inProcess ? "in-process" : `pid ${child.pid}`}, depth ${child.path.length - 1}, since ${child.startedAt.slice(11, 19)}`,
			})),
			recent: this.recent.map((d) => ({
				time: d.time,
				tool: d.tool,
				preview: d.preview,
				outcome: d.outcome,
				source: d.source,
				origin: d.origin,
			})),
			grants: this.grants.list(),
			sandbox: this.sandboxing.state(policy.sandbox),
			uncontainedFileTools: this.uncontainedFileTools(),
			permissionMode: this.permissionMode(),
		};
	}

	revokeGrant(id: string): boolean {
		return this.grants.revoke(id);
	}

	async shutdown(): Promise<void> {
		this.unsubscribeToolResult();
		this.unsubscribeTurnEnd();
		this.unsubscribeKeys();
		this.unpublishView();
		this.unpublishBash();
		this.unpublishFiles();
		this.closing.abort();
		this.unpublishQuery();
		await this.hub.close();
		await this.sandboxing.close();
		await this.audit.flush();
		this.status.clear();
		// Without a UI nobody saw the blocks but the model; a subagent's human saw its asks at the root.
		const summary = this.currentCtx.hasUI || this.hub.forwards ? null : this.blocked.summary(this.sessionId);
		if (summary === null) return;
		process.stderr.write(`${summary}\n`);
		// pi sets its own status only when it failed; that one stands.
		if (exitStatusFlag() && !process.exitCode) process.exitCode = this.blocked.exitStatus();
	}

	/**
	 * Record a decision; an allowed call's line is written before the call may run. When it cannot be written the
	 * call is blocked instead (adr/0005), and that is what is recorded (queued: the same file will likely refuse
	 * it too) and what the caller acts on.
	 */
	private record(
		outcome: GateOutcome,
		event: DecisionEvent["event"],
		tool: string,
		fallbackPreview: string,
		started: number,
		policy: EffectivePolicy | null,
		sandbox?: SandboxRecord,
		file?: string,
	): GateOutcome {
		const decision = (decided: GateOutcome): DecisionRecord => ({
			outcome: decided,
			event,
			sessionId: this.sessionId,
			origin: this.origin,
			tool,
			fallbackPreview,
			latencyMs: performance.now() - started,
			policy,
			...(sandbox && decided.outcome === "allow" ? { sandbox } : {}),
			...(file && decided.outcome === "allow" ? { file } : {}),
			permissionMode: this.permissionMode(policy ?? undefined),
		});
		let recorded = outcome;
		if (outcome.outcome === "allow") {
			try {
				recordDecision(decision(outcome), this.sinks, "now");
			} catch (error) {
				recorded = auditFailedOutcome(outcome, tool, errorMessage(error));
				recordDecision(decision(recorded), this.sinks, "queued");
			}
		} else {
			recordDecision(decision(outcome), this.sinks, "queued");
		}
		this.blocked.count(recorded.outcome);
		return recorded;
	}
}

/** An allowed call whose audit line could not be written: blocked, as a gate error naming the file. */
function auditFailedOutcome(allowed: GateOutcome, tool: string, error: string): GateOutcome {
	return {
		...allowed,
		outcome: "deny",
		source: { kind: "gate_error", reason: capSourceText(`the audit line could not be written: ${error}`) },
		reason: auditFailedReason(describeCall(allowed.action, tool), error),
	};
}

/** A second bash call with the id of one still waiting to run: refused before anything is decided. */
function duplicateIdOutcome(toolCallId: string): GateOutcome {
	const reason = duplicateIdReason(toolCallId);
	return {
		outcome: "deny",
		mode: "deny",
		source: { kind: "unavailable", reason },
		action: null,
		reason,
		chain: [],
	};
}

/** An allowed call the sandbox cannot hold as decided: blocked, with why (fail closed). */
function sandboxBlockOutcome(decided: GateOutcome, why: string): GateOutcome {
	return { ...decided, outcome: "deny", source: { kind: "gate_error", reason: why }, reason: why };
}

function launcherText(launcher: KnownLauncher): string {
	return launcherDescription(launcher.kind).label;
}

/** The agent name a launcher wrote into this session's system prompt (pi-subagents: `<active_agent name="…"/>`). */
function promptAgentName(ctx: ExtensionContext): string | null {
	try {
		return /<active_agent name="([^"<>]{1,200})"/.exec(ctx.getSystemPrompt())?.[1] ?? null;
	} catch {
		return null;
	}
}

/**
 * Hear every key pressed in pi's terminal, wherever it goes (interactive mode only): a dialog opening mid-word
 * must know the burst began before it (adr/0030). Elsewhere, or if pi refuses, the dialog times the keys it gets.
 */
function watchKeys(ctx: ExtensionContext, watch: TypingWatch): () => void {
	if (ctx.mode !== "tui") return () => undefined;
	try {
		const unsubscribe = ctx.ui.onTerminalInput(watch.listener);
		return () => {
			try {
				unsubscribe();
			} catch {
				// The UI is gone with the session: nothing is listening any more.
			}
		};
	} catch {
		return () => undefined;
	}
}

/** Session replacement (`/new`, `/resume`, `/fork`) starts without the old session's grants. */
const REPLACED = new Set(["new", "resume", "fork"]);

export async function startSessionGate(
	pi: ExtensionAPI,
	ctx: ExtensionContext,
	reason: string,
	env: Readonly<Record<string, string | undefined>>,
	tuiKit: TuiKit,
	bashKit: BashKit,
	fileKit: FileToolKit,
): Promise<SessionGate> {
	if (REPLACED.has(reason)) new SessionGrants(ctx.sessionManager.getSessionId()).clear();
	const agentDir = resolveAgentDir(env, env.HOME || homedir());
	const parked = new ParkedStore(join(agentDir, "pi-permission-hub", "parked"), agentDir);
	const gate = new SessionGate({ pi, ctx, env, parked, tuiKit, bashKit, fileKit });
	await gate.start(ctx.hasUI);
	return gate;
}

/**
 * The calls this session's gate blocked, counted for the one line a run without a UI leaves on stderr when it
 * ends: print and JSON mode show blocked calls only to the model, so without the line a person sees an exit code
 * of 0 and never learns that asks were parked for them.
 */
export class BlockedCalls {
	private parked = 0;
	private refused = 0;

	count(outcome: GateOutcome["outcome"]): void {
		if (outcome === "pending") this.parked++;
		else if (outcome === "deny") this.refused++;
	}

	/** With `--permission-exit-status`: 4 when a call was refused, else 3 when one was parked, else 0. */
	exitStatus(): 0 | 3 | 4 {
		return this.refused > 0 ? 4 : this.parked > 0 ? 3 : 0;
	}

	/** `pi-permission-hub: blocked 3 calls in this run: …`, naming the commands that show them; null when none. */
	summary(sessionId: string): string | null {
		const total = this.parked + this.refused;
		if (total === 0) return null;
		const parts: string[] = [];
		if (this.parked > 0)
			parts.push(`${this.parked} parked for approval (pi-permission-hub pending --session ${sessionId})`);
		if (this.refused > 0) parts.push(`${this.refused} refused (pi-permission-hub explain ${sessionId})`);
		return `pi-permission-hub: blocked ${total === 1 ? "1 call" : `${total} calls`} in this run: ${parts.join(", ")}`;
	}
}

/** A parked request whose answer file this version never uses, as the human is told about it. */
function parkedUnreadableLine(request: ForwardRequest, answer: UnusableAnswer): string {
	return `parked ${request.id} (${request.tool}: ${request.preview.slice(0, 80)}): ${unusableText(answer)}`;
}
