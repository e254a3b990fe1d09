/**
 * One value per process, shared by every copy of this extension that pi loads in it (a double install, a reload,
 * an in-process child's own copy): kept on `globalThis` under a registered symbol, so copies loaded from
 * different files still meet. `name` carries a version: a value whose shape changes gets a new name.
 */
export function processWide<T>(name: string, create: () => T): T {
	const key = Symbol.for(`pi-permission-hub.${name}`);
	const slot: Record<symbol, unknown> = globalThis;
	if (!(key in slot)) slot[key] = create();
	// Only this function writes under the key, always with the `create` of the same name and version.
	return slot[key] as T;
}

/** Subscribers to one kind of event, shared by every copy of the extension in the process. */
export interface ProcessWideListeners<E> {
	/** Subscribe; returns the unsubscribe function. */
	on(listener: (event: E) => void): () => void;
	/** Deliver to every subscriber; one that throws is isolated from the publisher and from the others. */
	publish(event: E): void;
}

export function processWideListeners<E>(name: string): ProcessWideListeners<E> {
	const set = (): Set<(event: E) => void> => processWide(name, () => new Set<(event: E) => void>());
	return {
		on(listener) {
			set().add(listener);
			return () => set().delete(listener);
		},
		publish(event) {
			for (const listener of set()) {
				try {
					listener(event);
				} catch {
					// An observer's bug must not change, delay or close what it observes.
				}
			}
		},
	};
}
