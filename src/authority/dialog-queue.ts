/**
 * One dialog at a time, first come first served. Local asks and asks forwarded from subagents share the
 * queue, so a human never has a prompt replaced under them; each waiting ask knows its position.
 */
export interface QueuedDialog {
	readonly id: string;
}

export interface QueuePosition {
	readonly index: number;
	readonly total: number;
}

export class DialogQueue<T extends QueuedDialog = QueuedDialog> {
	private readonly waiting: T[] = [];
	private tail: Promise<void> = Promise.resolve();
	private readonly listeners = new Set<(pending: readonly T[]) => void>();

	/** Run `show` when every earlier dialog has finished. Rejections do not block later dialogs. */
	run<R>(item: T, show: (position: () => QueuePosition) => Promise<R>): Promise<R> {
		this.waiting.push(item);
		this.changed();
		const result = this.tail.then(() => show(() => this.positionOf(item)));
		this.tail = result.then(
			() => this.remove(item),
			() => this.remove(item),
		);
		return result;
	}

	/** Drop an item that has not been shown yet (its ask was answered elsewhere or withdrawn). */
	remove(item: T): void {
		const index = this.waiting.indexOf(item);
		if (index === -1) return;
		this.waiting.splice(index, 1);
		this.changed();
	}

	pending(): readonly T[] {
		return [...this.waiting];
	}

	onChange(listener: (pending: readonly T[]) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private positionOf(item: T): QueuePosition {
		const index = this.waiting.indexOf(item);
		return { index: index === -1 ? 1 : index + 1, total: Math.max(this.waiting.length, 1) };
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
