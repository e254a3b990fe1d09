import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { SavedRuleRef } from "../policy/saved-rules.ts";
import { processWide } from "../process-wide.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import {
	isPermissionMode,
	PERMISSION_MODE_MEANINGS,
	PERMISSION_MODES,
	type PermissionMode,
} from "../vocabulary/permission-mode.ts";
import type { ReportLine } from "./permissions-report.ts";

/** What the command needs from the running gate. */
export interface PermissionsView {
	/** The report's lines, built by the gate: the entry pi loads stays small (adr/0012). */
	report(): readonly ReportLine[];
	revokeGrant(id: string): boolean;
	permissionMode(): PermissionMode;
	/** Switch the mode; returns why not when it is not allowed, else null. */
	setPermissionMode(mode: PermissionMode): string | null;
	/** Remove a saved rule from the user config; rejects with why when it cannot. */
	removeSavedRule(rule: SavedRuleRef): Promise<void>;
}

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

const TITLE = "pi-permission-hub: permissions";

/**
 * `/permissions`: the effective policy and where each rule came from, the grant ceiling, the authorizer chain,
 * pending forwarded asks, the children served, recent decisions with their provenance, and the session grants
 * (choose one to revoke it). `/permissions revoke <grant id>` revokes directly.
 */
export function registerPermissionsCommand(
	pi: ExtensionAPI,
	view: (ctx: ExtensionCommandContext) => Promise<PermissionsView | null>,
): void {
	pi.registerCommand("permissions", {
		description: "Show the permission policy, pending asks, recent decisions and session grants",
		handler: async (args, ctx) => {
			const gate = await view(ctx);
			if (!gate) {
				ctx.ui.notify(
					"pi-permission-hub: the gate is not running in this session (see the error above)",
					"error",
				);
				return;
			}
			const [command, id] = args.trim().split(/\s+/);
			if (command === "mode") {
				await chooseMode(gate, id, ctx);
				return;
			}
			if (command === "revoke") {
				const revoked = id ? gate.revokeGrant(id) : false;
				ctx.ui.notify(
					revoked
						? `pi-permission-hub: grant ${id} revoked`
						: `pi-permission-hub: no session grant with id "${id ?? ""}"`,
					revoked ? "info" : "warning",
				);
				return;
			}
			const lines = gate.report();
			const picked = await ctx.ui.select(
				TITLE,
				lines.map((line) => line.text),
			);
			const line = lines.find((l) => l.text === picked);
			if (line?.savedRule) {
				if (!(await ctx.ui.confirm("Remove this saved rule from your config?", line.text))) return;
				try {
					await gate.removeSavedRule(line.savedRule);
					ctx.ui.notify(`pi-permission-hub: removed the saved rule "${line.savedRule.pattern}"`, "info");
				} catch (error) {
					ctx.ui.notify(`pi-permission-hub: ${errorMessage(error)}`, "warning");
				}
				return;
			}
			if (!line?.grantId) return;
			if (await ctx.ui.confirm("Revoke this session grant?", line.text)) {
				const revoked = gate.revokeGrant(line.grantId);
				ctx.ui.notify(
					revoked ? "pi-permission-hub: grant revoked" : "pi-permission-hub: that grant is already gone",
					"info",
				);
			}
		},
	});
}

/** `/permissions mode [<mode>]`: switch to the mode named, or choose one from the list. */
async function chooseMode(
	gate: PermissionsView,
	named: string | undefined,
	ctx: ExtensionCommandContext,
): Promise<void> {
	let mode: PermissionMode | undefined;
	if (named === undefined) {
		const current = gate.permissionMode();
		const label = (m: PermissionMode): string =>
			`${m}${m === current ? " (now)" : ""} — ${PERMISSION_MODE_MEANINGS[m]}`;
		const picked = await ctx.ui.select("pi-permission-hub: permission mode", PERMISSION_MODES.map(label));
		mode = PERMISSION_MODES.find((m) => label(m) === picked);
		if (mode === undefined) return;
	} else if (isPermissionMode(named)) {
		mode = named;
	} else {
		ctx.ui.notify(
			`pi-permission-hub: "${named}" names no mode; the modes are ${PERMISSION_MODES.join(", ")}`,
			"warning",
		);
		return;
	}
	const refused = gate.setPermissionMode(mode);
	if (refused !== null) {
		ctx.ui.notify(`pi-permission-hub: ${mode} mode is not available: ${refused}`, "warning");
		return;
	}
	ctx.ui.notify(
		`pi-permission-hub: ${mode} mode — ${PERMISSION_MODE_MEANINGS[mode]}`,
		mode === "trusted" ? "warning" : "info",
	);
}
