import { homedir } from "node:os";
import { join } from "node:path";
import type {
	BeforeAgentStartEvent,
	ExtensionAPI,
	ExtensionContext,
	ToolCallEvent,
	ToolCallEventResult,
	UserBashEvent,
	UserBashEventResult,
} from "@earendil-works/pi-coding-agent";
import { AuditWriter } from "../audit/audit-writer.ts";
import { getAuthorizer } from "../authority/authorizer-registry.ts";
import { DenyingAuthorizer } from "../authority/denying-authorizer.ts";
import { DialogQueue } from "../authority/dialog-queue.ts";
import { lazyTuiDialog } from "../authority/lazy-tui-dialog.ts";
import { LocalDialogAuthorizer } from "../authority/local-dialog-authorizer.ts";
import { selectDialog } from "../authority/select-dialog.ts";
import { SessionGrants } from "../authority/session-grants.ts";
import type { TerminalAuthorizer } from "../authority/terminal-authorizer.ts";
import { loadBashParser } from "../classify/bash/bash-parser.ts";
import type { ToolAnnotations } from "../classify/classify-action.ts";
import type { Origin } from "../origin/origin.ts";
import { resolveOrigin } from "../origin/resolve-origin.ts";
import { resolveAgentDir } from "../policy/config-paths.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { createPolicyStore, type PolicyStore } from "../policy/policy-store.ts";
import { gateErrorReason } from "./block-reason.ts";
import { decideToolCall, type GateDeps } from "./decide-tool-call.ts";
import { decideUserBash } from "./decide-user-bash.ts";
import { DECISION_EVENT_CHANNEL, type DecisionEvent } from "./decision-events.ts";
import { deepFreeze } from "./deep-freeze.ts";
import type { GateOutcome } from "./gate-outcome.ts";
import { toolsForRun } from "./hidden-tools.ts";
import type { ParkedApprovals } from "./parked-approvals.ts";
import { createPolicyQuery } from "./policy-query.ts";
import { publishPolicyQuery } from "./query-registry.ts";
import { recordDecision } from "./record-decision.ts";
import { sessionClassifier } from "./session-classifier.ts";
import { StatusReporter } from "./status-reporter.ts";

export interface SessionGateOptions {
	readonly pi: ExtensionAPI;
	readonly ctx: ExtensionContext;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly parked: ParkedApprovals;
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
	private readonly pi: ExtensionAPI;
	private readonly deps: Promise<GateDeps>;
	private readonly unpublishQuery: () => void;

	constructor(options: SessionGateOptions) {
		const { pi, ctx, env } = options;
		this.pi = pi;
		const homeDir = env.HOME || homedir();
		this.sessionId = ctx.sessionManager.getSessionId();
		this.agentDir = resolveAgentDir(env, homeDir);
		this.origin = resolveOrigin({ subagent: null, env, hasUI: ctx.hasUI });
		this.store = createPolicyStore({
			agentDir: this.agentDir,
			cwd: ctx.cwd,
			homeDir,
			isProjectTrusted: () => ctx.isProjectTrusted(),
		});
		this.grants = new SessionGrants(this.sessionId);
		this.audit = new AuditWriter({ file: join(this.agentDir, "pi-permission-hub", "audit.jsonl") });
		this.status = new StatusReporter(ctx);
		const annotations = (tool: string): ToolAnnotations | undefined =>
			pi.getAllTools().find((t) => t.name === tool)?.annotations;
		const policy = (): EffectivePolicy => {
			const current = this.store.current();
			this.status.policyChanged(current);
			return current;
		};
		this.deps = loadBashParser().then((bash) => {
			const classify = sessionClassifier(bash, homeDir, annotations);
			return {
				sessionId: this.sessionId,
				origin: this.origin,
				policy,
				classify,
				grants: this.grants,
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
				terminal: () => this.terminalFor(this.currentCtx),
				defaultUnanswered: ctx.hasUI ? "wait" : "defer",
			};
		});
		// Every call awaits `deps` and fails closed on a rejection; this only keeps it from being unhandled.
		this.deps.catch(() => undefined);
		this.unpublishQuery = publishPolicyQuery(this.sessionId, {
			decide: async (call) => (await this.deps).policyQuery.decide(call),
		});
		this.currentCtx = ctx;
		this.status.policyChanged(this.store.current());
	}

	/** The latest context pi handed us: dialogs must use the live UI, not the one from session start. */
	private currentCtx: ExtensionContext;

	/** Tools this gate took out of the run, to give back when their deny rule goes. */
	private hiddenTools: ReadonlySet<string> = new Set();

	async onToolCall(event: ToolCallEvent, ctx: ExtensionContext): Promise<ToolCallEventResult | undefined> {
		this.currentCtx = ctx;
		const started = performance.now();
		const input = event.input;
		let outcome: GateOutcome;
		let policy: EffectivePolicy | null = null;
		try {
			// What runs must be what is decided: pi executes this very object, so nothing may change it from
			// here on — not an authorizer link or anything else while a dialog waits, not a handler registered
			// after ours (in strict mode its write throws, and pi blocks the call).
			deepFreeze(input);
			const deps = await this.deps;
			policy = deps.policy();
			outcome = await decideToolCall({ tool: event.toolName, input, cwd: ctx.cwd }, deps, ctx.signal);
		} catch (error) {
			outcome = gateError(event.toolName, error);
		}
		await this.record(
			outcome,
			"tool_call",
			event.toolName,
			JSON.stringify(input).slice(0, 300),
			started,
			policy,
		);
		if (outcome.outcome === "allow") return undefined;
		return { block: true, reason: outcome.reason };
	}

	async onUserBash(event: UserBashEvent, ctx: ExtensionContext): Promise<UserBashEventResult | undefined> {
		this.currentCtx = ctx;
		const started = performance.now();
		let outcome: GateOutcome;
		let policy: EffectivePolicy | null = null;
		try {
			const deps = await this.deps;
			policy = deps.policy();
			outcome = decideUserBash(event.command, event.cwd, deps);
		} catch (error) {
			outcome = gateError("bash", error);
		}
		await this.record(outcome, "user_bash", "bash", event.command.slice(0, 300), started, policy);
		if (outcome.outcome === "allow") return undefined;
		return { result: { output: `${outcome.reason}\n`, exitCode: 1, cancelled: false, truncated: false } };
	}

	/** Tools a deny rule forbids outright are taken away before the model can waste a turn on them. */
	onBeforeAgentStart(event: BeforeAgentStartEvent): void {
		const next = toolsForRun(this.pi.getActiveTools(), this.hiddenTools, this.store.current());
		this.hiddenTools = next.hidden;
		if (!next.tools) return;
		// Both: pi takes an edited `selectedTools` only when it differs from its base list, which still holds a
		// tool hidden earlier — giving one back needs the live loadout. The edit keeps handlers after ours
		// from seeing (and passing on) the hidden tools.
		this.pi.setActiveTools(next.tools);
		event.systemPromptOptions.selectedTools = next.tools;
	}

	async shutdown(): Promise<void> {
		this.unpublishQuery();
		await this.audit.flush();
		this.status.clear();
	}

	private terminalFor(ctx: ExtensionContext): TerminalAuthorizer {
		if (ctx.hasUI) {
			const presenter = ctx.mode === "tui" ? lazyTuiDialog(ctx.ui) : selectDialog(ctx.ui);
			return new LocalDialogAuthorizer(presenter, this.dialogs, null);
		}
		return new DenyingAuthorizer(
			"this session has no interactive UI (print or JSON mode) and no parent session to forward to",
			null,
		);
	}

	private record(
		outcome: GateOutcome,
		event: DecisionEvent["event"],
		tool: string,
		fallbackPreview: string,
		started: number,
		policy: EffectivePolicy | null,
	): Promise<void> {
		try {
			return recordDecision(
				{
					outcome,
					event,
					sessionId: this.sessionId,
					origin: this.origin,
					tool,
					fallbackPreview,
					latencyMs: performance.now() - started,
					policy,
				},
				{ audit: this.audit, emit: (e) => this.pi.events.emit(DECISION_EVENT_CHANNEL, e) },
			);
		} catch {
			// The decision stands whether or not it could be recorded; the writer reports its own errors.
			return Promise.resolve();
		}
	}
}

function gateError(tool: string, error: unknown): GateOutcome {
	const message = error instanceof Error ? error.message : String(error);
	return {
		outcome: "deny",
		mode: "deny",
		source: { kind: "gate_error", reason: message.slice(0, 2000) },
		action: null,
		reason: gateErrorReason(`this ${tool} call`, message),
		chain: [],
	};
}
