import type { ExtensionContext, ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { ParkedStore } from "../hub/parked-store.ts";
import type { SessionHub } from "../hub/session-hub.ts";
import type { ForwardedDialogKeys, NotifyStyle } from "../policy/config-schema.ts";
import type { AskEventSink } from "./ask-events.ts";
import { announceToTerminal, type TerminalOutput } from "./ask-notification.ts";
import { buildForwardRequest, type ForwardingIdentity } from "./build-forward-request.ts";
import { type DialogPresenter, selectDialog } from "./dialog-presenter.ts";
import type { DialogQueue } from "./dialog-queue.ts";
import { LocalDialogAuthorizer, type Parker } from "./local-dialog-authorizer.ts";
import { ParentForwardingAuthorizer } from "./parent-forwarding-authorizer.ts";
import { parkRequest } from "./parking.ts";
import type { Ask, TerminalAuthorizer, TerminalDecision } from "./terminal-authorizer.ts";
import type { TuiKit } from "./tui-dialog.ts";

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
	/** How the TUI dialog guards the keys of an ask forwarded from a subagent. */
	readonly forwardedDialogKeys: ForwardedDialogKeys;
}

/**
 * The terminal authorizer for this call, chosen from what the session is: a subagent forwards to its parent
 * (even with a UI of its own, unless configured otherwise); a session with a UI asks its human; anything else
 * has nobody to ask, and parks the ask or refuses it.
 */
export function chooseTerminal(ctx: ExtensionContext, deps: TerminalChoiceDeps): TerminalAuthorizer {
	const { hub, identity, parked, dialogs, tuiKit, announce, forwardedDialogKeys } = deps;
	const park = parker(parked, identity);
	if (hub.parent.kind === "child") {
		return new ParentForwardingAuthorizer({
			target: hub.parent.parent,
			identity,
			log: hub.log,
			parked,
			transport: hub.transport,
		});
	}
	if (ctx.hasUI && ctx.mode === "tui") {
		// Only pi's own terminal UI gets the bell or escape sequence: an RPC client owns its stdout protocol.
		const notifying: AskEventSink = (event) => {
			announce(event);
			announceToTerminal(event, deps.notify(), deps.terminal);
		};
		return new LocalDialogAuthorizer(
			lazyTuiDialog(ctx.ui, tuiKit, forwardedDialogKeys),
			dialogs,
			park,
			notifying,
		);
	}
	if (ctx.hasUI) return new LocalDialogAuthorizer(selectDialog(ctx.ui), dialogs, park, announce);
	const why =
		hub.parent.kind === "orphan"
			? hub.parent.why
			: "this session has no interactive UI (print or JSON mode) and no parent session to forward to";
	return new DenyingAuthorizer(why, park);
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
				? { ...ask.request, origin: ask.origin, unanswered: "defer" as const, expiresAt }
				: buildForwardRequest({ ...ask, unanswered: "defer" }, identity);
		return parkRequest(parked, request, `nobody answered; parked as request ${request.id}`);
	};
}

/** No UI and no parent: nobody can be asked. Park the ask when the policy is `defer`, else refuse it. */
export class DenyingAuthorizer implements TerminalAuthorizer {
	readonly kind = "denying";
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
): DialogPresenter {
	return {
		async present(prompt, options) {
			const { tuiDialog } = await import("./tui-dialog.ts");
			return tuiDialog(ui, kit, forwardedKeys).present(prompt, options);
		},
	};
}
