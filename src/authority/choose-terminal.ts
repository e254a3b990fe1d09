import type { ExtensionContext, ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { ParkedStore } from "../hub/parked-store.ts";
import type { ParentResolution } from "../hub/resolve-parent.ts";
import type { SessionHub } from "../hub/session-hub.ts";
import type { ForwardedDialogKeys, ForwardWithUI, NotifyStyle } from "../policy/config-schema.ts";
import type { AskEventSink } from "./ask-events.ts";
import { announceToTerminal, type TerminalOutput } from "./ask-notification.ts";
import { buildForwardRequest, type ForwardingIdentity } from "./build-forward-request.ts";
import { type DialogPresenter, selectDialog } from "./dialog-presenter.ts";
import type { DialogQueue } from "./dialog-queue.ts";
import { LocalDialogAuthorizer, type Parker } from "./local-dialog-authorizer.ts";
import { ParentForwardingAuthorizer } from "./parent-forwarding-authorizer.ts";
import { ParentThenLocalAuthorizer } from "./parent-then-local-authorizer.ts";
import { parkRequest } from "./parking.ts";
import type { Ask, TerminalAuthorizer, TerminalDecision } from "./terminal-authorizer.ts";
import type { TuiKit } from "./tui-dialog.ts";
import type { TypingWatch } from "./typing-watch.ts";

export interface TerminalChoiceDeps {
	readonly hub: SessionHub;
	readonly identity: ForwardingIdentity;
	readonly parked: ParkedStore;
	readonly dialogs: DialogQueue;
	readonly tuiKit: TuiKit;
	/** Where every dialog's opened and closed events go. */
	readonly announce: AskEventSink;
	/** The `notify` setting in force, read when a dialog opens. */
	readonly notify: () => NotifyStyle;
	/** The terminal pi's TUI draws on, for the notification. */
	readonly terminal: TerminalOutput;
	/** Whether a forwarded dialog in the TUI also wants each answer's key twice (adr/0030). */
	readonly forwardedDialogKeys: ForwardedDialogKeys;
	/** When the human last pressed a key, for the TUI dialog's key rule (adr/0030). */
	readonly typingWatch: TypingWatch;
	/** Whether a subagent with a UI of its own asks there when its parent cannot be asked (adr/0027). */
	readonly forwardWithUI: ForwardWithUI;
}

/**
 * Who decides an ask that reached the end of the chain, from what the session is (adr/0010, adr/0027):
 * - `parent`: a subagent forwards to its parent;
 * - `parent-then-local`: a subagent with a UI of its own forwards, and asks there when its parent cannot be asked;
 * - `local`: a root session with a UI asks its human;
 * - `local-for-orphan`: a subagent whose parent was never found asks in its own UI;
 * - `nobody`: no UI and no parent (or a subagent kept from asking its UI): the ask is parked or refused.
 */
export type TerminalRoute = "parent" | "parent-then-local" | "local" | "local-for-orphan" | "nobody";

export function terminalRoute(
	parent: ParentResolution["kind"],
	hasUI: boolean,
	forwardWithUI: ForwardWithUI,
): TerminalRoute {
	const ownUI = hasUI && forwardWithUI === "parent-then-local";
	switch (parent) {
		case "child":
			return ownUI ? "parent-then-local" : "parent";
		case "orphan":
			return ownUI ? "local-for-orphan" : "nobody";
		case "root":
			return hasUI ? "local" : "nobody";
	}
}

/** The terminal authorizer for this call, on the route `terminalRoute` chooses. */
export function chooseTerminal(ctx: ExtensionContext, deps: TerminalChoiceDeps): TerminalAuthorizer {
	const { hub, identity, parked } = deps;
	const park = parker(parked, identity);
	const { parent } = hub;
	const route = terminalRoute(parent.kind, ctx.hasUI, deps.forwardWithUI);
	if (parent.kind === "child") {
		const forwarding = new ParentForwardingAuthorizer({
			target: parent.parent,
			identity,
			log: hub.log,
			parked,
			transport: hub.transport,
		});
		if (route !== "parent-then-local") return forwarding;
		return new ParentThenLocalAuthorizer({
			unreachable: () => hub.transport.unreachable(parent.parent),
			forwarding,
			local: localDialog(ctx, deps, park),
		});
	}
	const why =
		parent.kind === "orphan"
			? parent.why
			: "this session has no interactive UI (print or JSON mode) and no parent session to forward to";
	const nobody = new NobodyAuthorizer(why, park);
	switch (route) {
		case "local":
			return localDialog(ctx, deps, park);
		case "local-for-orphan":
			return new ParentThenLocalAuthorizer({
				unreachable: () => why,
				forwarding: nobody,
				local: localDialog(ctx, deps, park),
			});
		default:
			return nobody;
	}
}

/** This session's own UI: pi's terminal UI with its dialog component and notification, or an RPC client's dialogs. */
function localDialog(ctx: ExtensionContext, deps: TerminalChoiceDeps, park: Parker): LocalDialogAuthorizer {
	const { dialogs, announce } = deps;
	if (ctx.mode === "tui") {
		// Only pi's own terminal UI gets the bell or escape sequence: an RPC client owns its stdout protocol.
		const notifying: AskEventSink = (event) => {
			announce(event);
			announceToTerminal(event, deps.notify(), deps.terminal);
		};
		return new LocalDialogAuthorizer(dialogPresenter(ctx, deps), dialogs, park, notifying);
	}
	return new LocalDialogAuthorizer(dialogPresenter(ctx, deps), dialogs, park, announce);
}

/** How this session shows a dialog: pi's terminal UI gets our component (and its key rule), an RPC client `select`. */
export function dialogPresenter(
	ctx: Pick<ExtensionContext, "mode" | "ui">,
	deps: Pick<TerminalChoiceDeps, "tuiKit" | "forwardedDialogKeys" | "typingWatch">,
): DialogPresenter {
	return ctx.mode === "tui"
		? lazyTuiDialog(ctx.ui, deps.tuiKit, deps.forwardedDialogKeys, deps.typingWatch)
		: selectDialog(ctx.ui);
}

/** Park an ask durably: the call is blocked now, and an approval given later lets the identical action through. */
function parker(parked: ParkedStore, identity: ForwardingIdentity): Parker {
	return async (ask) => {
		// A parked request lives as long as the defer expiry, whatever the asker first meant to wait (the store
		// keeps the first expiry when the same request is parked again).
		const expiresAt = new Date(Date.now() + ask.deferExpiryMs).toISOString();
		// A child's request is stored with this session's view of who asked, not the child's claim about itself.
		const request =
			ask.kind === "forwarded"
				? {
						...ask.request,
						origin: ask.origin,
						humanOnly: ask.request.humanOnly === true || ask.humanOnly,
						unanswered: "defer" as const,
						expiresAt,
					}
				: buildForwardRequest({ ...ask, unanswered: "defer" }, identity);
		return parkRequest(parked, request, `nobody answered; parked as request ${request.id}`);
	};
}

/** No UI and no parent: nobody can be asked. Park the ask when the policy says `defer`, else refuse it (never as a denial by a human). */
export class NobodyAuthorizer implements TerminalAuthorizer {
	readonly kind = "nobody";
	private readonly park: Parker | null;
	private readonly why: string;

	constructor(why: string, park: Parker | null) {
		this.why = why;
		this.park = park;
	}

	async decide(ask: Ask): Promise<TerminalDecision> {
		if (ask.unanswered === "defer" && this.park) return this.park(ask);
		return { outcome: "deny", source: { kind: "unavailable", reason: this.why } };
	}
}

/** The TUI dialog's code loads only when a dialog is actually shown in the TUI. */
export function lazyTuiDialog(
	ui: ExtensionUIContext,
	kit: TuiKit,
	forwardedKeys: ForwardedDialogKeys,
	watch: TypingWatch,
): DialogPresenter {
	return {
		async present(prompt, options) {
			const { tuiDialog } = await import("./tui-dialog.ts");
			return tuiDialog(ui, kit, forwardedKeys, watch).present(prompt, options);
		},
	};
}
