/**
 * One session's decision pipeline for tests, composed by `buildGateDeps` as production composes it: the real policy,
 * the real classifier, real grants, a real parked store on disk and the real terminal authorizers (a dialog answered
 * by a script, or nobody to ask).
 */
import { join } from "node:path";
import type { AuthorizerLink } from "../../src/authority/authorizer-link.ts";
import type { DialogOptions, DialogResult } from "../../src/authority/dialog-presenter.ts";
import { DialogQueue } from "../../src/authority/dialog-queue.ts";
import { LocalDialogAuthorizer } from "../../src/authority/local-dialog-authorizer.ts";
import { SessionGrants } from "../../src/authority/session-grants.ts";
import type { RulesToSave, TerminalAuthorizer } from "../../src/authority/terminal-authorizer.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { buildGateDeps, type GateDeps } from "../../src/gate/gate-deps.ts";
import { GatePipeline } from "../../src/gate/pipeline.ts";
import { TreeGrants } from "../../src/gate/tree-grants.ts";
import { ParkedStore } from "../../src/hub/parked-store.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import type { PermissionMode } from "../../src/vocabulary/permission-mode.ts";
import { ScriptedPresenter } from "../authority/scripted-presenter.ts";
import { CWD, HOME } from "../classify/classify-fixture.ts";
import { tempDir } from "../policy/fixtures.ts";

const HUMAN = { kind: "human" } as const;

/** A grammar that went away: every bash call it is asked about throws. */
const failingGrammar: BashParser = {
	parse: () => {
		throw new Error("the grammar went away");
	},
	loadMs: 0,
};

export interface World {
	readonly pipeline: GatePipeline;
	readonly presenter: ScriptedPresenter;
	/** The one dialog queue of the session, shared by its own and its forwarded asks. */
	readonly queue: DialogQueue;
	readonly grants: SessionGrants;
	/** The whole-tree ones among `grants`, over `queue`: shared with the forwarded asks this session serves. */
	readonly treeGrants: TreeGrants;
	readonly parked: ParkedStore;
	readonly linkCalls: string[];
	/** What the pipeline asked to save, with the directory. */
	readonly saved: { readonly save: RulesToSave; readonly directory: string }[];
}

export interface WorldOptions {
	/** The human's answers, in order; a function answers when it resolves. */
	readonly script?: (DialogResult | ((options: DialogOptions) => Promise<DialogResult>))[];
	readonly links?: Record<string, AuthorizerLink>;
	readonly terminal?: TerminalAuthorizer;
	readonly delegation?: GateDeps["delegation"];
	readonly fixDelegation?: GateDeps["fixDelegation"];
	readonly classifierFails?: boolean;
	readonly sandboxMissing?: string;
	/** Whether a sandbox would contain this session's bash calls (default: none runs). */
	readonly sandboxContains?: boolean;
	/** Why the write or edit tool pi would run is not the gate's (adr/0014). */
	readonly uncontainedFileTool?: string;
	readonly permissionMode?: PermissionMode;
}

/** One session's pipeline over the given policy, with its human answering from `script`. */
export function pipelineWorld(bash: BashParser, policy: EffectivePolicy, options: WorldOptions = {}): World {
	const agentDir = tempDir();
	const parked = new ParkedStore(join(agentDir, "pi-permission-hub", "parked"), agentDir);
	const grants = new SessionGrants(`pipeline-test-${Math.random()}`);
	const presenter = new ScriptedPresenter(...(options.script ?? []));
	const queue = new DialogQueue();
	const treeGrants = new TreeGrants(grants, queue);
	const terminal = options.terminal ?? new LocalDialogAuthorizer(presenter, queue, null, () => undefined);
	const linkCalls: string[] = [];
	const saved: World["saved"] = [];
	const deps = buildGateDeps({
		sessionId: "session-under-test",
		policy: () => policy,
		bash: options.classifierFails ? failingGrammar : bash,
		homeDir: HOME,
		agentDir: join(HOME, ".pi", "agent"),
		annotations: () => undefined,
		origin: HUMAN,
		cwd: CWD,
		grants,
		treeGrants,
		parked,
		lookupLink: (name) => {
			const link = options.links?.[name];
			return (
				link &&
				((request) => {
					linkCalls.push(name);
					return link(request);
				})
			);
		},
		terminal: () => terminal,
		humanReachable: true,
		delegation: options.delegation ?? (() => null),
		fixDelegation: options.fixDelegation ?? (() => ({ gated: false, reason: "no fix in this test" })),
		sandboxMissing: async () => options.sandboxMissing ?? null,
		sandboxContains: async () => options.sandboxContains ?? false,
		foreignFileTool: () => options.uncontainedFileTool ?? null,
		saveRules: async (save, directory) => {
			saved.push({ save, directory });
		},
		permissionMode: () => options.permissionMode ?? "default",
	});
	return {
		pipeline: new GatePipeline(Promise.resolve(deps), HUMAN),
		presenter,
		queue,
		grants,
		treeGrants,
		parked,
		linkCalls,
		saved,
	};
}
