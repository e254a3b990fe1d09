/**
 * The terminal notification for a dialog that starts waiting for the human (`notify`, adr/0020): the bell, or a
 * desktop notification escape sequence, written beside pi's TUI rather than in the dialog's rendering, so a
 * human in another window or multiplexer pane learns that the agent stopped for them.
 */
import { originLabel } from "../origin/origin.ts";
import type { NotifyStyle } from "../policy/config-schema.ts";
import type { AskEvent } from "./ask-events.ts";

export interface TerminalOutput {
	/** The stream pi's TUI draws on. */
	readonly stream: { readonly isTTY?: boolean; write(chunk: string): unknown };
	/** Running inside tmux (`$TMUX`): an OSC sequence reaches the outer terminal only through its passthrough. */
	readonly inTmux: boolean;
}

const BEL = "\x07";
const ESC = "\x1b";
/** Long enough for tool, tier and who asks; notification centres cut far shorter texts anyway. */
const MAX_TEXT = 200;

/**
 * Rings for the first dialog of a burst only: the human answering queued dialogs one after another is already
 * there, and a bell per keypress would teach them to turn it off.
 */
export function announceToTerminal(event: AskEvent, style: NotifyStyle, out: TerminalOutput): void {
	if (event.phase !== "opened" || event.position.index !== 1 || style === "off") return;
	// Escape sequences belong on a terminal, never in a file or pipe stdout was sent to.
	if (!out.stream.isTTY) return;
	const who = event.origin.kind === "subagent" ? ` for ${originLabel(event.origin)}` : "";
	const what = event.tool === event.tier ? event.tool : `${event.tool} (${event.tier})`;
	try {
		out.stream.write(notificationSequence(style, `Permission needed: ${what}${who}`, out.inTmux));
	} catch {
		// A terminal that cannot be written to cannot be notified; the dialog is shown all the same.
	}
}

/**
 * The bytes for one notification. The text names the tool, tier and asking subagent — never the command, which
 * may carry a secret onto a lock screen — and loses every control character, so a tool or agent name cannot
 * end the sequence early and write its own escape codes.
 */
export function notificationSequence(
	style: Exclude<NotifyStyle, "off">,
	text: string,
	inTmux: boolean,
): string {
	const clean = plainText(text);
	switch (style) {
		case "bell":
			// tmux handles the bell itself (it flags the window and passes it on): no passthrough needed.
			return BEL;
		case "osc9":
			return throughTmux(`${ESC}]9;${clean}${BEL}`, inTmux);
		case "osc777":
			// `;` separates the fields of OSC 777: the title is `pi`, the body must not contain one.
			return throughTmux(`${ESC}]777;notify;pi;${clean.replaceAll(";", ",")}${BEL}`, inTmux);
	}
}

function plainText(text: string): string {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
	return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").slice(0, MAX_TEXT);
}

/** tmux's DCS passthrough (needs `set -g allow-passthrough on`): every ESC inside is doubled. */
function throughTmux(sequence: string, inTmux: boolean): string {
	return inTmux ? `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ESC}\\` : sequence;
}
