/**
 * When the human last pressed a key, wherever it went (adr/0030). pi's editor has the keys while the agent works,
 * so a dialog alone would not know that a burst of typing began before it opened: the session's watch hears
 * every raw key through pi's `onTerminalInput` (interactive mode only), without consuming any.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";

export class TypingWatch {
	private readonly clock: () => number;
	/** When the latest key was pressed, and the one before it. */
	private latestAt: number | null = null;
	private beforeLatestAt: number | null = null;
	/** The key being dispatched right now: pi calls input listeners, then the focused component, in one go. */
	private dispatching: string | null = null;
	/** How many keys were heard: a dialog waiting to take an answer sees whether another key came meanwhile. */
	private heard = 0;

	constructor(clock: () => number = () => performance.now()) {
		this.clock = clock;
	}

	now(): number {
		return this.clock();
	}

	/** Hear one key (pi's input listener, or the dialog for a key the listener did not hear). */
	observe(data: string): void {
		this.heard++;
		this.beforeLatestAt = this.latestAt;
		this.latestAt = this.clock();
		this.dispatching = data;
		queueMicrotask(() => {
			if (this.dispatching === data) this.dispatching = null;
		});
	}

	/**
	 * The time of the key before `data`, the key a dialog is handling now. If the listener did not hear this key
	 * (no listener, or another one consumed it first), it is heard here, so it still counts for the next.
	 */
	previousKeyAt(data: string): number | null {
		if (this.dispatching !== data) this.observe(data);
		return this.beforeLatestAt;
	}

	/** How many keys were heard so far. */
	keysHeard(): number {
		return this.heard;
	}

	/** pi's input listener: it only times the key, and lets it through unchanged. */
	readonly listener = (data: string): undefined => {
		this.observe(data);
		return undefined;
	};
}

/**
 * Hear every key pressed in pi's terminal, wherever it goes (interactive mode only): a dialog opening mid-word
 * must know the burst began before it (adr/0030). Elsewhere, or if pi refuses, the dialog times the keys it gets.
 * Returns what stops the hearing.
 */
export function watchKeys(ctx: ExtensionContext, watch: TypingWatch): () => void {
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
