/**
 * A lazily started async value shared by every caller, except that a failure is not kept: the next call starts
 * over (a failed grammar load must not disable classification for the rest of the process).
 */
export function sharedUntilFailure<T>(start: () => Promise<T>): () => Promise<T> {
	let current: Promise<T> | undefined;
	return () => {
		if (current === undefined) {
			const attempt = start();
			current = attempt;
			attempt.catch(() => {
				if (current === attempt) current = undefined;
			});
		}
		return current;
	};
}
