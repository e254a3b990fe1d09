import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { SandboxState } from "../sandbox/sandbox-state.ts";
import { PERMISSION_MODE_MEANINGS, type PermissionMode } from "../vocabulary/permission-mode.ts";

export const STATUS_KEY = "pi-permission-hub";

/**
 * The footer status and the one-time notifications: a config error (once per distinct error, not per call),
 * a raised grant ceiling, an authorizer link named in config but never registered, pending forwarded asks.
 */
export class StatusReporter {
	private ctx: ExtensionContext;
	private lastPolicy: EffectivePolicy | null = null;
	private configError: string | null = null;
	private ceiling: string | null = null;
	private readonly unregistered = new Set<string>();
	/** The forwarded asks pending, each by its asker's label. */
	private askers: readonly string[] = [];
	/** The asks parked in earlier runs and offered again, each by who parked it. */
	private parked: readonly string[] = [];
	private noSandbox: string | null = null;
	private uncontainedFiles: string | null = null;
	private auditError: string | null = null;
	private permissionMode: PermissionMode = "default";
	private shown: string | undefined;

	constructor(ctx: ExtensionContext) {
		this.ctx = ctx;
	}

	use(ctx: ExtensionContext): void {
		this.ctx = ctx;
	}

	policyChanged(policy: EffectivePolicy): void {
		if (policy === this.lastPolicy) return;
		this.lastPolicy = policy;
		const error = policy.configErrors[0]?.message ?? null;
		if (error && error !== this.configError) {
			this.notify(
				`pi-permission-hub: ${error}. Every tool call is blocked until the file is fixed.`,
				"error",
			);
		}
		this.configError = error;
		const raised = policy.grantCeiling.reason;
		this.ceiling = raised ? `ceiling raised to ${policy.grantCeiling.tier} (${raised})` : null;
		this.render();
	}

	unregisteredLink(name: string): void {
		if (this.unregistered.has(name)) return;
		this.unregistered.add(name);
		this.notify(
			`pi-permission-hub: authorizerChain names "${name}", but no extension registered that link; it is skipped.`,
			"warning",
		);
		this.render();
	}

	/**
	 * The sandbox is on but cannot run here: shown until it can (the notification is the sandbox's own), with
	 * whether calls that would have run in it ask instead.
	 */
	sandboxChanged(state: SandboxState): void {
		const next =
			state.kind === "unavailable" ? `${state.why}${state.asks ? " (silent bash calls ask)" : ""}` : null;
		if (next === this.noSandbox) return;
		this.noSandbox = next;
		this.render();
	}

	/** The audit log cannot take lines (every allowed call is blocked) — shown until it can again. */
	auditFailed(message: string | null): void {
		if (message === this.auditError) return;
		this.auditError = message;
		this.render();
	}

	/** The write or edit tool pi runs is not the gate's (adr/0014): shown while it is so, as its calls ask. */
	fileToolsChanged(why: string | null): void {
		if (why === this.uncontainedFiles) return;
		this.uncontainedFiles = why;
		this.render();
	}

	/** Any mode but `default` shows; `trusted` loudly, and once as a warning too. */
	permissionModeChanged(mode: PermissionMode): void {
		if (mode === this.permissionMode) return;
		this.permissionMode = mode;
		if (mode === "trusted")
			this.notify(`pi-permission-hub: TRUSTED mode: ${PERMISSION_MODE_MEANINGS.trusted}.`, "warning");
		this.render();
	}

	/**
	 * `askers`: one entry per forwarded ask pending, naming who it comes from as its dialog does; `parked`: one per
	 * ask parked in an earlier run and offered again, naming who parked it (it is not a child's live ask).
	 */
	pendingAsks(askers: readonly string[], parked: readonly string[] = []): void {
		this.askers = askers;
		this.parked = parked;
		this.render();
	}

	clear(): void {
		this.shown = undefined;
		this.safely(() => this.ctx.ui.setStatus(STATUS_KEY, undefined));
	}

	private render(): void {
		const parts = [
			...(this.permissionMode === "trusted"
				? ["TRUSTED MODE: asks up to destructive allowed"]
				: this.permissionMode === "default"
					? []
					: [`${this.permissionMode} mode`]),
			...(this.configError ? ["config error: all calls blocked"] : []),
			...(this.auditError ? ["audit log cannot be written: allowed calls blocked"] : []),
			...(this.ceiling ? [this.ceiling] : []),
			...(this.noSandbox ? [`no sandbox: ${this.noSandbox}`] : []),
			...(this.uncontainedFiles ? [`write and edit ask: ${this.uncontainedFiles}`] : []),
			...[...this.unregistered].map((name) => `link "${name}" not registered`),
			...(this.askers.length > 0
				? [
						`${this.askers.length} forwarded ask${this.askers.length === 1 ? "" : "s"} pending${listText(this.askers)}`,
					]
				: []),
			...(this.parked.length > 0
				? [
						`${this.parked.length} parked ask${this.parked.length === 1 ? "" : "s"} from earlier runs pending${listText(this.parked)}`,
					]
				: []),
		];
		const text = parts.length > 0 ? `permissions: ${parts.join(" · ")}` : undefined;
		if (text === this.shown) return;
		this.shown = text;
		this.safely(() => this.ctx.ui.setStatus(STATUS_KEY, text));
	}

	private notify(message: string, level: "info" | "warning" | "error"): void {
		this.safely(() => this.ctx.ui.notify(message, level));
	}

	/** The UI may be gone (session replaced); status is best effort and must never break a decision. */
	private safely(action: () => void): void {
		try {
			action();
		} catch {
			// Nothing to do: the status is cosmetic and the decision path must not fail because of it.
		}
	}
}

/** Each asker once, however many asks they have pending. */
function listText(names: readonly string[]): string {
	const distinct = [...new Set(names)];
	const listed = distinct.slice(0, 3).join(", ");
	return ` (${listed}${distinct.length > 3 ? `, +${distinct.length - 3}` : ""})`;
}
