import type { PermissionsView } from "./permissions-command.ts";

/**
 * The gate of each live session publishes its `/permissions` view here, so the command registered by any copy
 * of the extension (a double install registers it twice) shows the copy that actually gates the session.
 */
const VIEWS_KEY = Symbol.for("pi-permission-hub.permissions-views.v1");

function table(): Map<string, PermissionsView> {
	const slot = globalThis as { [VIEWS_KEY]?: Map<string, PermissionsView> };
	slot[VIEWS_KEY] ??= new Map();
	return slot[VIEWS_KEY];
}

export function publishPermissionsView(sessionId: string, view: PermissionsView): () => void {
	table().set(sessionId, view);
	return () => {
		if (table().get(sessionId) === view) table().delete(sessionId);
	};
}

export function permissionsViewFor(sessionId: string): PermissionsView | null {
	return table().get(sessionId) ?? null;
}
