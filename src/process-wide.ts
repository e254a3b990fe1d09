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
