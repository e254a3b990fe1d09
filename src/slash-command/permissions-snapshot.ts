/**
 * What `/permissions` reads and changes of the live session: the snapshot gathered from the session's parts
 * (how it reaches a human, in words, and each list the report prints; `permissions-report.ts` words the rest),
 * and the view the command acts through (revoke a grant, switch the mode, remove a saved rule).
 */
import { getAuthorizer } from "../authority/authorizer-link.ts";
import { terminalRoute } from "../authority/choose-terminal.ts";
import type { DialogQueue } from "../authority/dialog-queue.ts";
import type { SessionGrants } from "../authority/session-grants.ts";
import type { ChildAnnouncement } from "../hub/child-announcement.ts";
import { type UnusableAnswer, unusableText } from "../hub/parked-store.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import type { SessionHub } from "../hub/session-hub.ts";
import type { Origin } from "../origin/origin.ts";
import { userConfigPath } from "../policy/config-paths.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import { addRules, removeSavedRule } from "../policy/saved-rules.ts";
import type { SandboxState } from "../sandbox/sandbox-state.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import type { PermissionsView } from "./permissions-command.ts";
import { type PermissionsSnapshot, permissionsReport, type RecentDecision } from "./permissions-report.ts";

/** The live session's parts `/permissions` reads (the gate's `SessionParts`). */
export interface PermissionsSources {
	readonly sessionId: string;
	/** Whose user config a rule added here goes into. */
	readonly agentDir: string;
	readonly origin: Origin;
	readonly store: { current(): EffectivePolicy };
	/** The latest context pi handed over: whether the session has its UI now. */
	readonly ctx: { readonly hasUI: boolean };
	readonly hub: Pick<SessionHub, "parent" | "serving" | "parkedWithUnusableAnswer" | "children">;
	readonly dialogs: Pick<DialogQueue, "pending">;
	readonly grants: Pick<SessionGrants, "list" | "revoke">;
	/** How a served child is named, each hop from the session that asks (adr/0025). */
	readonly childNames: { labelOf(child: ChildAnnouncement): readonly string[] };
	/** The last decisions, newest last. */
	readonly decisions: { readonly recent: readonly RecentDecision[] };
	readonly sandboxing: { state(settings: EffectivePolicy["sandbox"]): SandboxState };
	uncontainedFileTools(): string | null;
	permissionMode(): PermissionMode;
	setPermissionMode(mode: PermissionMode): string | null;
}

/** What the `/permissions` command reads and changes of the live session. */
export function permissionsView(sources: PermissionsSources): PermissionsView {
	return {
		report: () => permissionsReport(permissionsSnapshot(sources)),
		revokeGrant: (id) => sources.grants.revoke(id),
		permissionMode: () => sources.permissionMode(),
		setPermissionMode: (mode) => sources.setPermissionMode(mode),
		removeSavedRule: (rule) => removeSavedRule(rule),
		// Marked saved, so it is listed with the others and can be removed here; written only if the file stays valid.
		addRule: async (rule) => {
			const file = userConfigPath(sources.agentDir);
			await addRules(file, [{ ...rule, saved: new Date().toISOString() }]);
			return file;
		},
	};
}

function permissionsSnapshot(sources: PermissionsSources): PermissionsSnapshot {
	const { hub } = sources;
	const policy = sources.store.current();
	return {
		sessionId: sources.sessionId,
		origin: sources.origin,
		reach: reachText(hub.parent, sources.ctx.hasUI, policy.forwardWithUI),
		inbox: hub.serving?.root ?? null,
		policy,
		links: policy.authorizerChain.map((name) => ({ name, registered: getAuthorizer(name) !== undefined })),
		pending: sources.dialogs.pending().map((item) => item.label ?? item.id),
		parkedUnreadable: hub
			.parkedWithUnusableAnswer()
			.map(({ request, answer }) => parkedUnreadableLine(request, answer)),
		children: hub.children().map((child) => ({
			label: sources.childNames.labelOf(child).join(" ← "),
			where: `${child.inProcess ? "in-process" : `pid ${child.pid}`}, depth ${child.path.length - 1}, since ${child.startedAt.slice(11, 19)}`,
		})),
		recent: sources.decisions.recent.map((d) => ({
			time: d.time,
			tool: d.tool,
			preview: d.preview,
			outcome: d.outcome,
			source: d.source,
			origin: d.origin,
		})),
		grants: sources.grants.list(),
		sandbox: sources.sandboxing.state(policy.sandbox),
		uncontainedFileTools: sources.uncontainedFileTools(),
		permissionMode: sources.permissionMode(),
	};
}

/** How this session reaches a human: its own UI, a parent (and how it was found), or nobody. */
export function reachText(
	parent: SessionHub["parent"],
	hasUI: boolean,
	forwardWithUI: EffectivePolicy["forwardWithUI"],
): string {
	const route = terminalRoute(parent.kind, hasUI, forwardWithUI);
	const ownUI = "this session's own UI";
	if (parent.kind === "child") {
		const found = `through parent session ${parent.parent.sessionId} (${parent.parent.location}, found via ${parent.parent.via})`;
		return route === "parent-then-local" ? `${found}; ${ownUI} when the parent cannot be asked` : found;
	}
	if (parent.kind === "orphan")
		return route === "local-for-orphan" ? `${ownUI} (${parent.why})` : `nobody: ${parent.why}`;
	return hasUI ? ownUI : "nobody (no UI and no parent): asks are parked or refused";
}

/** A parked request whose answer file this version never uses, as the human is told about it. */
export function parkedUnreadableLine(request: ForwardRequest, answer: UnusableAnswer): string {
	return `parked ${request.id} (${request.tool}: ${request.preview.slice(0, 80)}): ${unusableText(answer)}`;
}
