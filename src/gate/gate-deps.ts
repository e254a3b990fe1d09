/**
 * What one session's gate needs to decide: the session's policy, classifier, grants, parked approvals, links
 * and terminal authorizer, composed once per session by `buildGateDeps` (for `SessionGate`, and for the tests
 * that drive the pipeline) and shared by every kind of decision.
 */
import type { AuthorizerLink, PolicyQuery } from "../authority/authorizer-link.ts";
import type { SessionGrants } from "../authority/session-grants.ts";
import type { RulesToSave, TerminalAuthorizer, UnansweredPolicy } from "../authority/terminal-authorizer.ts";
import type { ActionPart, ClassifiedAction, ToolCall } from "../classify/action.ts";
import type { BashParser } from "../classify/bash/bash-parser.ts";
import { classifyAction, type DelegationClass, type ToolAnnotations } from "../classify/classify-action.ts";
import type { ParkedApprovals } from "../hub/parked-store.ts";
import { launcherDescription } from "../launchers/known-launcher.ts";
import type { PlannedChange } from "../launchers/settings-change.ts";
import type { Origin } from "../origin/origin.ts";
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import type { Tier } from "../vocabulary/tier.ts";
import type { Delegation } from "./delegation-guard.ts";
import { createPolicyQuery } from "./policy-query.ts";
import type { TreeGrants } from "./tree-grants.ts";

/** What one session's gate needs to decide a call. Built once per session; cheap to call per tool call. */
export interface GateDeps {
	readonly sessionId: string;
	readonly policy: () => EffectivePolicy;
	readonly classify: (call: ToolCall, policy: EffectivePolicy) => ClassifiedAction;
	/** Every grant a human gave in this session; this session's own calls are decided by all of them. */
	readonly grants: SessionGrants;
	/** The whole-tree ones among them, which alone answer the asks children forward (adr/0006). */
	readonly treeGrants: TreeGrants;
	readonly parked: ParkedApprovals;
	readonly lookupLink: (name: string) => AuthorizerLink | undefined;
	readonly policyQuery: PolicyQuery;
	readonly terminal: () => TerminalAuthorizer;
	/** The unanswered policy when the config does not set one (wait with a human, defer without). */
	readonly defaultUnanswered: UnansweredPolicy;
	/** Whether the call delegates to a known subagent launcher, and whether its children would be gated. */
	readonly delegation: (call: ToolCall) => Delegation | null;
	/**
	 * "Add the gate to <file> and continue": write `planned`, the settings change the dialog offered, as
	 * `doctor --fix` does (only over the text it was worked out from), then check the call again. `gated` only
	 * when the write succeeded and the children now load the gate.
	 */
	readonly fixDelegation: (call: ToolCall, planned: PlannedChange) => DelegationFixResult;
	/**
	 * Why a bash call cannot be sandboxed although the policy requires it (`sandbox.required`), or null when
	 * it can be or need not be: such a call is then for a human to decide (adr/0017).
	 */
	readonly sandboxMissing: (
		settings: EffectivePolicy["sandbox"],
		input: Readonly<Record<string, unknown>>,
	) => Promise<string | null>;
	/**
	 * Whether this session's sandbox will run a bash call with these parts in the profile of its tier, were it
	 * allowed without a human: on, able to run, and not exempted by `sandbox.exclude` (adr/0017, adr/0023).
	 */
	readonly sandboxContains: (
		settings: EffectivePolicy["sandbox"],
		parts: readonly ActionPart[],
	) => Promise<boolean>;
	/**
	 * Why the write or edit tool pi runs for `tool` is not the gate's contained one (another extension's, or pi's
	 * own), or null when it is (or `tool` is no file tool): such a call is then for a human to decide (adr/0014).
	 */
	readonly uncontainedFileTool: (tool: string) => string | null;
	/**
	 * Save the rules a human asked for with their answer ("Always allow" / "Always deny", adr/0018), for calls in
	 * `directory`. Never rejects: a file that cannot be written is reported, and the answer stands for this call.
	 */
	readonly saveRules: (save: RulesToSave, directory: string) => Promise<void>;
	/**
	 * The session's permission mode under `policy` (adr/0023); for a forwarded ask, the mode of the session
	 * deciding it. Given the policy in hand, so a decision reads the config files once.
	 */
	readonly permissionMode: (policy: EffectivePolicy) => PermissionMode;
}

/** The parts of a session `buildGateDeps` composes into its `GateDeps`. */
export interface GateParts
	extends Omit<GateDeps, "classify" | "policyQuery" | "defaultUnanswered" | "uncontainedFileTool"> {
	/** The bash grammar, loaded. */
	readonly bash: BashParser;
	readonly homeDir: string;
	readonly agentDir: string;
	/** What another extension's tool declares about itself. */
	readonly annotations: (tool: string) => ToolAnnotations | undefined;
	/** The root's project (adr/0008); absent: each call's cwd. */
	readonly projectDir?: string;
	/** The `PATH` the session's bash commands run with. */
	readonly searchPath?: string;
	/** Who is asking, and the directory other extensions' queries are decided in when they name none. */
	readonly origin: Origin;
	readonly cwd: string;
	/** Whether a human can be reached, through a UI or a parent: an unanswered ask then waits, else it is parked. */
	readonly humanReachable: boolean;
	/** Why the write or edit tool pi runs is not the gate's contained one, or null when it is (adr/0014). */
	readonly foreignFileTool: (tool: "write" | "edit") => string | null;
}

/**
 * One session's `GateDeps`: the classifier (which weighs each delegation the guard finds) and the policy query
 * other extensions ask are built over the same policy, grants and parked approvals as the pipeline's own steps.
 */
export function buildGateDeps(parts: GateParts): GateDeps {
	const {
		bash,
		homeDir,
		agentDir,
		annotations,
		projectDir,
		searchPath,
		origin,
		cwd,
		humanReachable,
		foreignFileTool,
		...given
	} = parts;
	const classify = sessionClassifier(
		bash,
		homeDir,
		agentDir,
		annotations,
		(call) => delegationClass(parts.delegation(call)),
		projectDir,
		searchPath,
	);
	return {
		...given,
		classify,
		policyQuery: createPolicyQuery({
			policy: parts.policy,
			classify,
			grants: parts.grants,
			parked: parts.parked,
			origin,
			cwd,
		}),
		defaultUnanswered: humanReachable ? "wait" : "defer",
		uncontainedFileTool: (tool) => (tool === "write" || tool === "edit" ? foreignFileTool(tool) : null),
	};
}

/** A delegation the guard found, as far as its tier goes (adr/0011). */
function delegationClass(found: Delegation | null): DelegationClass | null {
	return (
		found && {
			launcher: launcherDescription(found.launcher.kind).label,
			gated: found.verdict.gated,
			uncontained: found.uncontained,
		}
	);
}

export type DelegationFixResult =
	| { readonly gated: true; readonly file: string; readonly via: string }
	| { readonly gated: false; readonly reason: string };

/**
 * Classification with the operator's tier assignments from the policy in force. Built per policy object
 * (the store returns the same object until a file changes), so the per-call cost is the classification.
 */
export function sessionClassifier(
	bash: BashParser,
	homeDir: string,
	agentDir: string,
	annotations: (tool: string) => ToolAnnotations | undefined,
	delegation: (call: ToolCall) => DelegationClass | null,
	/** The root's project (adr/0008); absent: each call's cwd. */
	projectDir?: string,
	/** The `PATH` the session's bash commands run with. */
	searchPath?: string,
): (call: ToolCall, policy: EffectivePolicy) => ClassifiedAction {
	let forPolicy: EffectivePolicy | null = null;
	let toolTiers: Readonly<Record<string, Tier>> = {};
	let extraCommandTiers: readonly { pattern: string; tier: Tier }[] = [];
	return (call, policy) => {
		if (policy !== forPolicy) {
			forPolicy = policy;
			toolTiers = Object.fromEntries([...policy.toolTiers].map(([tool, a]) => [tool, a.tier]));
			extraCommandTiers = policy.commandTiers.map((c) => ({ pattern: c.matcher.pattern, tier: c.tier }));
		}
		return classifyAction(call, {
			bash,
			extraCommandTiers,
			toolTiers,
			toolAnnotations: annotations,
			homeDir,
			agentDir,
			delegation,
			...(projectDir === undefined ? {} : { projectDir }),
			...(searchPath === undefined ? {} : { searchPath }),
		});
	};
}
