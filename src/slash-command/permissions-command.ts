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
	/** Add a rule to the user config (a saved rule, removable here); the file, or a rejection with why. */
	addRule(rule: NewRule): Promise<string>;
}

/** A rule typed in `/permissions`. */
export interface NewRule {
	readonly surface: "command" | "write" | "read" | "tool";
	readonly pattern: string;
	readonly action: "allow" | "ask" | "deny";
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
 * (choose one to revoke it), a part at a time; and adding a rule. `/permissions revoke <grant id>` revokes
 * directly.
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
			await browseReport(gate, ctx);
		},
	});
}

/** One part of the report: the lines under one of its `── title ──` headers. */
interface ReportSection {
	readonly title: string;
	readonly lines: readonly ReportLine[];
}

/** The report's lines in their parts, in order. */
function reportSections(lines: readonly ReportLine[]): ReportSection[] {
	const sections: { title: string; lines: ReportLine[] }[] = [];
	for (const line of lines) {
		const header = /^── (.*) ──$/.exec(line.text);
		if (header) sections.push({ title: header[1] ?? "", lines: [] });
		else sections.at(-1)?.lines.push(line);
	}
	return sections;
}

/** How a part is listed on the first screen: a one-line part shows its line, a longer one its count. */
function sectionLabel(section: ReportSection): string {
	const [only] = section.lines;
	return section.lines.length === 1 && only
		? `${section.title}: ${only.text}`
		: `${section.title} (${section.lines.length})`;
}

const ADD_RULE = "Add a rule…";
const BACK = "← back";

/**
 * The report, a part at a time: the first screen lists its parts (and adding a rule), a part lists its lines.
 * Choosing a session grant offers to revoke it, a saved rule to remove it; Escape leaves.
 */
async function browseReport(gate: PermissionsView, ctx: ExtensionCommandContext): Promise<void> {
	for (;;) {
		const sections = reportSections(gate.report());
		const labels = sections.map(sectionLabel);
		const picked = await ctx.ui.select(TITLE, [...labels, ADD_RULE]);
		if (picked === undefined) return;
		if (picked === ADD_RULE) {
			await addRule(gate, ctx);
			return;
		}
		const section = sections[labels.indexOf(picked)];
		if (section === undefined) return;
		const chosen = await ctx.ui.select(`${TITLE} › ${section.title}`, [
			...section.lines.map((line) => line.text),
			BACK,
		]);
		if (chosen === undefined) return;
		const line = section.lines.find((l) => l.text === chosen);
		if (line?.savedRule || line?.grantId) {
			await changeLine(gate, line, ctx);
			return;
		}
	}
}

async function changeLine(
	gate: PermissionsView,
	line: ReportLine,
	ctx: ExtensionCommandContext,
): Promise<void> {
	if (line.savedRule) {
		if (!(await ctx.ui.confirm("Remove this saved rule from your config?", line.text))) return;
		try {
			await gate.removeSavedRule(line.savedRule);
			ctx.ui.notify(`pi-permission-hub: removed the saved rule "${line.savedRule.pattern}"`, "info");
		} catch (error) {
			ctx.ui.notify(`pi-permission-hub: ${errorMessage(error)}`, "warning");
		}
		return;
	}
	if (!line.grantId) return;
	if (await ctx.ui.confirm("Revoke this session grant?", line.text)) {
		const revoked = gate.revokeGrant(line.grantId);
		ctx.ui.notify(
			revoked ? "pi-permission-hub: grant revoked" : "pi-permission-hub: that grant is already gone",
			"info",
		);
	}
}

/** What each rule surface matches, as the add-a-rule list offers it. */
const SURFACE_CHOICES: readonly {
	readonly surface: NewRule["surface"];
	readonly label: string;
	readonly example: string;
}[] = [
	{ surface: "command", label: "command — a shell command (git push *)", example: "git push *" },
	{ surface: "write", label: "write — files written or edited (src/**)", example: "src/**" },
	{ surface: "read", label: "read — files read (~/.ssh/**)", example: "~/.ssh/**" },
	{ surface: "tool", label: "tool — a tool by name (mcp__*)", example: "mcp__*" },
];

const ACTIONS: readonly NewRule["action"][] = ["allow", "ask", "deny"];

/** Add a rule to the user config: its surface, its pattern, what it does; checked before it is written. */
async function addRule(gate: PermissionsView, ctx: ExtensionCommandContext): Promise<void> {
	const surfacePicked = await ctx.ui.select(
		`${TITLE} › add a rule: what it matches`,
		SURFACE_CHOICES.map((c) => c.label),
	);
	const choice = SURFACE_CHOICES.find((c) => c.label === surfacePicked);
	if (choice === undefined) return;
	const pattern = (await ctx.ui.input(`Pattern for ${choice.surface}`, choice.example))?.trim();
	if (!pattern) return;
	const picked = await ctx.ui.select(`${TITLE} › add a rule: ${choice.surface} "${pattern}"`, [...ACTIONS]);
	const action = ACTIONS.find((a) => a === picked);
	if (action === undefined) return;
	try {
		const file = await gate.addRule({ surface: choice.surface, pattern, action });
		ctx.ui.notify(`pi-permission-hub: added ${action} ${choice.surface} "${pattern}" (${file})`, "info");
	} catch (error) {
		ctx.ui.notify(`pi-permission-hub: the rule was not added: ${errorMessage(error)}`, "warning");
	}
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
