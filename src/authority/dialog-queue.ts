/**
 * One dialog at a time, first come first served. Local asks and asks forwarded from subagents share the
 * queue, so a human never has a prompt replaced under them; each ask knows its position ("2 of 5": the second
 * of the five asks since the queue was last empty).
 */
export interface QueuedDialog {
	readonly id: string;
	/** What is being asked, for the list of pending asks (`bash: rm -rf build — subagent root ← worker`). */
	readonly label?: string;
	/** Called by `recheckWaiting`: an ask a new grant now covers can settle itself without a dialog. */
	readonly recheck?: () => void;
}

export interface QueuePosition {
	readonly index: number;
	readonly total: number;
}

export class DialogQueue<T extends QueuedDialog = QueuedDialog> {
	private readonly waiting: T[] = [];
	/** Asks finished since the queue was last empty: the "k" of "k of n" counts on from them. */
	private served = 0;
	private tail: Promise<void> = Promise.resolve();
	private readonly listeners = new Set<(pending: readonly T[]) => void>();

	/** Run `show` when every earlier dialog has finished. Rejections do not block later dialogs. */
	run<R>(item: T, show: (position: () => QueuePosition) => Promise<R>): Promise<R> {
		this.waiting.push(item);
		this.changed();
		const result = this.tail.then(() => show(() => this.positionOf(item)));
		this.tail = result.then(
			() => this.finished(item),
			() => this.finished(item),
		);
		return result;
	}

	/** Take an item off the list before its turn (settled elsewhere, withdrawn). */
	remove(item: T): void {
		const index = this.waiting.indexOf(item);
		if (index === -1) return;
		this.waiting.splice(index, 1);
		if (this.waiting.length === 0) this.served = 0;
		this.changed();
	}

	private finished(item: T): void {
		const index = this.waiting.indexOf(item);
		if (index === -1) return;
		this.waiting.splice(index, 1);
		this.served = this.waiting.length === 0 ? 0 : this.served + 1;
		this.changed();
	}

	/** Let every waiting ask check whether it is still needed (after a whole-tree grant, say). */
	recheckWaiting(): void {
		for (const item of [...this.waiting]) {
			try {
				item.recheck?.();
			} catch {
				// One ask's failing check must not keep the others from settling.
			}
		}
	}

	pending(): readonly T[] {
		return [...this.waiting];
	}

	onChange(listener: (pending: readonly T[]) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private positionOf(item: T): QueuePosition {
		const index = Math.max(this.waiting.indexOf(item), 0);
		return { index: this.served + index + 1, total: Math.max(this.served + this.waiting.length, 1) };
	}

	private changed(): void {
		const snapshot = this.pending();
		for (const listener of this.listeners) {
			try {
				listener(snapshot);
			} catch {
				// A status display's bug must not leave an item stuck in the queue or a dialog unshown.
			}
		}
	}
}
