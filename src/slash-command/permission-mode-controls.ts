/**
 * The gate's controls outside `/permissions`: the `--permission-mode` flag and the Alt+M shortcut (adr/0023), and
 * `--permission-exit-status` (a run without a UI ends with a status that says calls were blocked). pi refuses to start when two extensions register the same flag, and a double install (adr/0012)
 * loads this extension twice, so only one copy per process registers them; every copy reads the flag through the
 * one that did (pi answers `getFlag` only to the extension that registered the flag).
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { processWide } from "../process-wide.ts";
import {
	nextPermissionMode,
	PERMISSION_MODE_FLAG,
	PERMISSION_MODE_MEANINGS,
	PERMISSION_MODE_SHORTCUT,
	PERMISSION_MODES,
} from "../vocabulary/permission-mode.ts";
import { permissionsViewFor } from "./permissions-command.ts";

interface Controls {
	/** The extension instance that registered the flag and the shortcut, in this process's current load. */
	owner: ExtensionAPI | null;
}

function controls(): Controls {
	return processWide<Controls>("permission-mode-controls.v1", () => ({ owner: null }));
}

/** An owner from an earlier load (pi reloaded its extensions) answers nothing any more. */
function alive(owner: ExtensionAPI | null): owner is ExtensionAPI {
	if (owner === null) return false;
	try {
		owner.getFlag(PERMISSION_MODE_FLAG);
		return true;
	} catch {
		return false;
	}
}

/**
 * Register the flag and the shortcut, unless another copy in this load already did. `ready` makes sure the
 * session's gate is up before the shortcut looks for it.
 */
export function registerPermissionModeControls(
	pi: ExtensionAPI,
	ready: (ctx: ExtensionContext) => Promise<unknown>,
): void {
	const shared = controls();
	if (alive(shared.owner)) return;
	shared.owner = pi;
	pi.registerFlag(PERMISSION_MODE_FLAG, {
		type: "string",
		description: `The session's permission mode: ${PERMISSION_MODES.join(", ")} (pi-permission-hub)`,
	});
	pi.registerFlag(EXIT_STATUS_FLAG, {
		type: "boolean",
		description:
			"Without a UI (pi -p, JSON mode): exit 3 when calls were parked for approval, 4 when calls were refused (pi-permission-hub)",
	});
	pi.registerShortcut(PERMISSION_MODE_SHORTCUT, {
		description: "Cycle the permission mode: default, accept-edits, plan (pi-permission-hub)",
		handler: async (ctx) => {
			await ready(ctx).catch(() => null);
			const view = permissionsViewFor(ctx.sessionManager.getSessionId());
			if (!view) return;
			// Past the modes the managed config forbids, to the next one it allows (at most once round).
			let mode = nextPermissionMode(view.permissionMode());
			for (let tries = 1; view.setPermissionMode(mode) !== null && tries < PERMISSION_MODES.length; tries++)
				mode = nextPermissionMode(mode);
			const now = view.permissionMode();
			ctx.ui.notify(`pi-permission-hub: ${now} mode — ${PERMISSION_MODE_MEANINGS[now]}`, "info");
		},
	});
}

/** `pi --permission-exit-status`. */
export const EXIT_STATUS_FLAG = "permission-exit-status";

/** Whether `--permission-exit-status` was given. */
export function exitStatusFlag(): boolean {
	const { owner } = controls();
	try {
		return owner?.getFlag(EXIT_STATUS_FLAG) === true;
	} catch {
		return false;
	}
}

/** `--permission-mode` as given on pi's command line (undefined when not given). */
export function permissionModeFlag(): boolean | string | undefined {
	const { owner } = controls();
	try {
		return owner?.getFlag(PERMISSION_MODE_FLAG);
	} catch {
		return undefined;
	}
}
