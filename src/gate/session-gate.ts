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
import { dialogPresenter } from "../authority/choose-terminal.ts";
import { SessionGrants } from "../authority/session-grants.ts";
import type { TuiKit } from "../authority/tui-dialog.ts";
import { watchKeys } from "../authority/typing-watch.ts";
import { visibleText } from "../authority/visible-text.ts";
import type { ToolCall } from "../classify/action.ts";
import { loadBashParser } from "../classify/bash/bash-parser.ts";
import { ParkedStore } from "../hub/parked-store.ts";
import { nodeFileView } from "../launchers/file-view.ts";
import { gatePackageAt } from "../launchers/package-manifest.ts";
import { refreshSchemaCopies } from "../policy/config-json-schema.ts";
import { resolveAgentDir } from "../policy/config-paths.ts";
import { exitStatusFlag, permissionModeFlag } from "../slash-command/permission-mode-controls.ts";
import { publishPermissionsView } from "../slash-command/permissions-command.ts";
import { permissionsView } from "../slash-command/permissions-snapshot.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { PLAN_MODE_PROMPT } from "../vocabulary/permission-mode.ts";
import {
	type FileToolKit,
	filePlanOf,
	foreignFileTool,
	isContainedFileTool,
	plannedFile,
	publishFilePlans,
	registerContainedFileTools,
} from "./contained-file-tools.ts";
import { ForwardedAsks } from "./forwarded-asks.ts";
import type { GateDeps } from "./gate-deps.ts";
import type { GateOutcome } from "./gate-outcome.ts";
import { toolsForRun } from "./hidden-tools.ts";
import { GatePipeline } from "./pipeline.ts";
import { publishPolicyQuery } from "./policy-query.ts";
import { piSubagentsRuns, startSandbox } from "./sandbox-start.ts";
import { type BashKit, publishBashRunner } from "./sandboxed-bash-tool.ts";
import { duplicateIdOutcome, sandboxBlockOutcome } from "./session-decisions.ts";
import { SessionParts, type SessionPartsOptions } from "./session-parts.ts";
import { unusableParkedAnswersNotice } from "./unusable-parked-answers.ts";

export interface SessionGateOptions extends SessionPartsOptions {
	/** pi's file tools as pi provides them (for the contained read, write and edit). */
	readonly fileKit: FileToolKit;
}

/**
 * One pi session adapted to the gate's pipeline (adr/0002): pi's events in, each decision recorded and acted
 * on; what the session is made of is wired in `SessionParts`. The bash grammar loads in the background from
 * here, so the first tool call does not pay for it unless it comes at once.
 */
export class SessionGate {
	private readonly parts: SessionParts;
	private readonly closing = new AbortController();
	private readonly pi: ExtensionAPI;
	private readonly options: SessionGateOptions;
	private readonly deps: Promise<GateDeps>;
	private readonly pipeline: GatePipeline;
	private readonly forwarded: ForwardedAsks;
	/** What `shutdown` undoes first, in order: pi's events heard, what this session published for other copies. */
	private readonly unsubscribe: readonly (() => void)[];
	private readonly unpublishQuery: () => void;
	/** Tools this gate took out of the run, to give back when their deny rule goes. */
	private hiddenTools: ReadonlySet<string> = new Set();

	constructor(options: SessionGateOptions) {
		const { pi, ctx } = options;
		this.pi = pi;
		this.options = options;
		const parts = new SessionParts(options);
		this.parts = parts;
		const { sessionId, sandboxing, filePlans } = parts;
		// Registered here, not in the factory: only the copy that gates this session watches its delegations.
		const unsubscribeToolResult = pi.on("tool_result", (event) => {
			parts.delegationWatch.finished(event.toolCallId, event.isError);
			parts.childNames.delegationFinished(event.toolCallId, Date.now());
			if (isContainedFileTool(event.toolName)) filePlans.finished(event.toolCallId);
			if (event.toolName !== "bash") return;
			sandboxing.finished(event.toolCallId, event.input);
			// A run that made a repository (or .pi/, .agents/) is said to the human and to the model (adr/0017).
			const created = sandboxing.createdNotice(event.input);
			if (created === null) return;
			parts.notify(created, "warning");
			parts.hub.log.write("sandbox.created", { toolCallId: event.toolCallId, notice: created });
			return { content: [...event.content, { type: "text" as const, text: `\n${created}` }] };
		});
		const unsubscribeTurnEnd = pi.on("turn_end", () => {
			sandboxing.turnEnded();
			filePlans.clear();
		});
		this.deps = loadBashParser().then((bash) => parts.gateDeps(bash));
		// Every call awaits `deps` and fails closed on a rejection; this only keeps it from being unhandled.
		this.deps.catch(() => undefined);
		this.pipeline = new GatePipeline(this.deps, parts.origin);
		this.forwarded = new ForwardedAsks({
			sessionId,
			pipeline: this.pipeline,
			parked: options.parked,
			sinks: parts.decisions.sinks,
			dialogs: parts.dialogs,
			treeGrants: parts.treeGrants,
			log: parts.hub.log,
			warn: (message) => parts.notify(message, "warning"),
			onPendingChange: (askers, parked) => parts.status.pendingAsks(askers, parked),
			shownFor: (request) => parts.childNames.shownFor(request),
			permissionMode: (current) => parts.permissionMode(current ?? undefined),
		});
		this.unsubscribe = [
			unsubscribeToolResult,
			unsubscribeTurnEnd,
			watchKeys(ctx, parts.typingWatch),
			publishPermissionsView(sessionId, permissionsView(parts)),
			publishBashRunner(sessionId, sandboxing),
			publishFilePlans(sessionId, filePlans),
		];
		this.unpublishQuery = publishPolicyQuery(sessionId, {
			decide: async (call) => (await this.deps).policyQuery.decide(call),
		});
		parts.status.policyChanged(parts.store.current());
		parts.chooseModeFromFlag(permissionModeFlag());
		parts.status.permissionModeChanged(parts.permissionMode());
	}

	/**
	 * Open the inbox this session serves (when it has a UI or relays for a parent), so children spawned from
	 * the first tool call on find it; then offer asks parked earlier in this project to the human.
	 */
	async start(hasUI: boolean): Promise<void> {
		const { parts } = this;
		const { sandbox } = parts.store.current();
		if (!piSubagentsRuns(this.pi.getAllTools()))
			registerContainedFileTools(this.pi, this.options.fileKit, parts.agentDir);
		parts.status.fileToolsChanged(parts.uncontainedFileTools());
		if (sandbox.enabled) startSandbox(this.pi, this.options.bashKit, parts.sandboxing);
		// Said as soon as the probe is in; it runs while the session starts.
		void parts.sandboxing.ready().then(() => this.showSandboxState());
		await parts.hub.serve({
			decide: (ask) => this.forwarded.serve(ask),
			undelivered: (request, why) =>
				parts.notify(
					`pi-permission-hub: your answer to ${request.tool}: ${visibleText(request.preview.slice(0, 80))} could not be sent to the subagent (${why}); it was told nobody could answer, and the call did not run.`,
					"warning",
				),
		});
		if (parts.hub.parent.kind !== "child") this.refreshSchemas();
		if (hasUI && !parts.hub.forwards) {
			const requests = parts.hub.parkedForThisProject().map((e) => e.request);
			const unusable = unusableParkedAnswersNotice(parts.hub.parkedWithUnusableAnswer());
			if (unusable !== null) parts.notify(unusable, "warning");
			const timeoutMs = parts.store.current().dialogTimeoutSeconds * 1000;
			const presenter = dialogPresenter(parts.ctx, {
				tuiKit: this.options.tuiKit,
				forwardedDialogKeys: parts.store.current().forwardedDialogKeys,
				typingWatch: parts.typingWatch,
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
			this.parts.status.sandboxChanged(this.parts.sandboxing.state(this.parts.store.current().sandbox));
		} catch (error) {
			this.parts.hub.log.write("gate.status_failed", { error: errorMessage(error) });
		}
	}

	/** The JSON Schemas next to the user config, for `"$schema": "./config.schema.json"`; in the background. */
	private refreshSchemas(): void {
		const root = gatePackageAt(fileURLToPath(import.meta.url), nodeFileView)?.root;
		if (root === undefined) return;
		refreshSchemaCopies(this.parts.agentDir, root).catch((error: unknown) =>
			this.parts.hub.log.write("gate.schema_copy_failed", { error: String(error) }),
		);
	}

	async onToolCall(event: ToolCallEvent, ctx: ExtensionContext): Promise<ToolCallEventResult | undefined> {
		const { parts } = this;
		const { sandboxing, filePlans } = parts;
		parts.ctx = ctx;
		const started = performance.now();
		const startedAt = Date.now();
		const input = event.input;
		// Taken before the sandbox may rewrite the command: the audit names what the model asked for.
		const preview = JSON.stringify(input).slice(0, 300);
		const own = { event: "tool_call", tool: event.toolName, fallbackPreview: preview, started } as const;
		const pendingPlan =
			event.toolName === "bash"
				? sandboxing.pending(event.toolCallId)
				: isContainedFileTool(event.toolName) && filePlans.pending(event.toolCallId);
		if (pendingPlan) {
			// Never decided: no human is asked about a call that could not run as they decided (adr/0017).
			const refused = parts.decisions.record(duplicateIdOutcome(event.toolCallId), { ...own, policy: null });
			return { block: true, reason: refused.reason };
		}
		if (event.toolName === "bash") sandboxing.seal(input);
		const call: ToolCall = { tool: event.toolName, input, cwd: ctx.cwd };
		const { outcome: decided, policy } = await this.pipeline.run({
			kind: "tool_call",
			call,
			signal: ctx.signal,
		});
		const bash =
			decided.outcome === "allow" && event.toolName === "bash" && policy !== null
				? await sandboxing.allowed(
						{ toolCallId: event.toolCallId, input, cwd: ctx.cwd },
						decided,
						policy.sandbox,
					)
				: undefined;
		const outcome = bash && "block" in bash ? sandboxBlockOutcome(decided, bash.block) : decided;
		const sandbox = bash && "record" in bash ? bash.record : undefined;
		const file = this.planFileTool(event, outcome);
		const recorded = parts.decisions.record(outcome, { ...own, policy, sandbox, file });
		if (recorded.outcome !== "allow") filePlans.set(event.toolCallId, null);
		if (recorded.outcome === "allow") {
			// Already worked out while deciding (cached per call), so this reads no files again.
			const delegation = parts.delegations.inspect(call);
			if (delegation) {
				parts.delegationWatch.started(event.toolCallId, event.toolName, delegation, startedAt);
				if (delegation.call.launches && delegation.call.foreground)
					parts.childNames.delegationStarted(event.toolCallId, delegation.call.tasks, startedAt);
			}
			return undefined;
		}
		if (event.toolName === "bash") sandboxing.withdrawn(event.toolCallId, input);
		return { block: true, reason: recorded.reason };
	}

	/**
	 * An allowed read, write or edit: what the gate's tool may open when pi runs it (adr/0014), and the real path
	 * of the file it opens, for the audit line (undefined when the tool pi runs is not the gate's).
	 */
	private planFileTool(event: ToolCallEvent, outcome: GateOutcome): string | undefined {
		const tool = event.toolName;
		if (!isContainedFileTool(tool)) return undefined;
		if (outcome.outcome !== "allow" || foreignFileTool(this.pi.getAllTools(), tool) !== null) {
			this.parts.filePlans.set(event.toolCallId, null);
			return undefined;
		}
		const plan = filePlanOf(tool, outcome);
		this.parts.filePlans.set(event.toolCallId, plan);
		return plannedFile(outcome.action, plan);
	}

	async onUserBash(event: UserBashEvent, ctx: ExtensionContext): Promise<UserBashEventResult | undefined> {
		this.parts.ctx = ctx;
		const started = performance.now();
		const { outcome, policy } = await this.pipeline.run({
			kind: "user_bash",
			command: event.command,
			cwd: event.cwd,
		});
		const run =
			outcome.outcome === "allow" && policy !== null
				? await this.parts.sandboxing.userCommand(outcome, policy.sandbox, event.cwd)
				: undefined;
		const recorded = this.parts.decisions.record(outcome, {
			event: "user_bash",
			tool: "bash",
			fallbackPreview: event.command.slice(0, 300),
			started,
			policy,
			sandbox: run?.record,
		});
		if (recorded.outcome === "allow") return run?.operations ? { operations: run.operations } : undefined;
		return { result: { output: `${recorded.reason}\n`, exitCode: 1, cancelled: false, truncated: false } };
	}

	/** Tools a deny rule forbids outright are taken away before the model can waste a turn on them. */
	onBeforeAgentStart(event: BeforeAgentStartEvent): BeforeAgentStartEventResult | undefined {
		const next = toolsForRun(this.pi.getActiveTools(), this.hiddenTools, this.parts.store.current());
		this.hiddenTools = next.hidden;
		if (next.tools) {
			// Both: pi takes an edited `selectedTools` only when it differs from its base list, which still holds a
			// tool hidden earlier — giving one back needs the live loadout. The edit keeps handlers after ours
			// from seeing (and passing on) the hidden tools.
			this.pi.setActiveTools(next.tools);
			event.systemPromptOptions.selectedTools = next.tools;
		}
		// The model is told, so it plans instead of trying changes one refusal at a time.
		return this.parts.permissionMode() === "plan"
			? { systemPrompt: `${event.systemPrompt}\n\n${PLAN_MODE_PROMPT}` }
			: undefined;
	}

	async shutdown(): Promise<void> {
		const { parts } = this;
		for (const stop of this.unsubscribe) stop();
		this.closing.abort();
		this.unpublishQuery();
		await parts.hub.close();
		await parts.sandboxing.close();
		await parts.audit.flush();
		parts.status.clear();
		// Without a UI nobody saw the blocks but the model; a subagent's human saw its asks at the root.
		const summary = parts.ctx.hasUI || parts.hub.forwards ? null : parts.decisions.blockedSummary();
		if (summary === null) return;
		process.stderr.write(`${summary}\n`);
		// pi sets its own status only when it failed; that one stands.
		if (exitStatusFlag() && !process.exitCode) process.exitCode = parts.decisions.blockedExitStatus();
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
