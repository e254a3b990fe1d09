import { processWide } from "../process-wide.ts";
import type { PermissionsView } from "./permissions-command.ts";

/**
 * The gate of each live session publishes its `/permissions` view here, so the command registered by any copy
 * of the extension (a double install registers it twice) shows the copy that actually gates the session.
 */
function table(): Map<string, PermissionsView> {
	return processWide<Map<string, PermissionsView>>("permissions-views.v1", () => new Map());
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
