/** Record lookup that ignores inherited keys, so a command named `constructor` or `__proto__` finds nothing. */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
	return Object.hasOwn(record, key) ? record[key] : undefined;
}
