/**
 * The session's permission mode applied to what the policy step decided (adr/0023). A mode only ever moves a
 * decision the policy left to a human (`accept-edits`, `trusted`, `dont-ask`), or refuses more (`plan`): a deny
 * rule, an ask rule, a guarded path, an ask only a human may answer and a `privileged` part are never moved.
 * A mode allows only what is contained: what the classifier knows every effect of, or a program run inside the
 * sandbox of its tier; and no mode writes outside the working directory unasked (adr/0014). Commands the human
 * typed (`!`) are theirs: no mode applies to them.
 */
import type { ActionPart, ClassifiedAction } from "../classify/action.ts";
import type { DecisionSource } from "../provenance/decision-source.ts";
import type { PermissionMode } from "../vocabulary/permission-mode.ts";
import { type Tier, tierRank } from "../vocabulary/tier.ts";

/**
 * What an asking part does, as far as a mode looks at it:
 * - `edit`: it writes files and nothing else, each named before it runs (pi's write and edit tools, `touch`,
 *   `mkdir -p`, `cp`, `mv`, `tee`, `sed -i` with a substitution, a read-only command's redirect);
 * - `paths`: every effect is on the paths it names, beyond writing them (a proven read, `rm`, `rmdir`);
 * - `program`: a bash command that runs a program whose effects the gate cannot see (an unknown command, an
 *   interpreter, a build tool, a known program with effects beyond its paths, anything behind a wrapper);
 * - `tool`: another extension's tool, which runs in pi's process and does what its annotations declare.
 */
export type PartEffects = "edit" | "paths" | "program" | "tool";

/** One part the policy asked about. */
export interface AskingEffect {
	readonly tier: Tier;
	readonly effects: PartEffects;
	/** Whether it touches a path outside the working directory. */
	readonly leavesCwd: boolean;
	/** Whether it writes a path outside the working directory. */
	readonly writesOutsideCwd: boolean;
	/** What runs, for the one-line reason (`python3`, a tool's name); undefined for bash code that is no command. */
	readonly name: string | undefined;
}

/** What the policy step handed on, as far as a mode looks at it. */
export type PolicyVerdict =
	| { readonly kind: "settled"; readonly outcome: "allow" | "deny" | "pending" }
	| {
			readonly kind: "ask";
			/** Only a human may answer it (a guarded path, an ungated delegation, a required sandbox missing). */
			readonly humanOnly: boolean;
			/** An ask rule forced it: the operator wants a human asked, whatever the mode. */
			readonly askRule: boolean;
			readonly asking: readonly AskingEffect[];
			/**
			 * Whether a sandbox will run this call in the profile of its tier: this session's own bash call, the
			 * sandbox on and able to run, and the call not exempted by `sandbox.exclude` (adr/0017).
			 */
			readonly contained: boolean;
	  };

interface ModeDecision {
	readonly source: DecisionSource;
	readonly reason: string;
}

export type ModeEffect =
	/** The mode changes nothing; `note` says in one line why it did not allow a call it might have (for the dialog). */
	| { readonly kind: "none"; readonly note?: string }
	| (ModeDecision & { readonly kind: "allow" })
	| (ModeDecision & { readonly kind: "deny" });

const NONE: ModeEffect = { kind: "none" };

/** The highest tier `trusted` allows without asking. */
const TRUSTED_UP_TO = tierRank("destructive");

/** pi's own file tools: `edit` when they write, `paths` when they read (classify-action.ts names their paths). */
const FILE_TOOLS: ReadonlySet<string> = new Set(["read", "write", "edit", "grep", "find", "ls"]);

/** What `part` of a call to `tool` does, for the modes. */
function partEffects(tool: string, part: ActionPart): PartEffects {
	if (tool === "bash") {
		if (part.knownEffects === true) return "edit";
		if (part.onlyPathEffects === true || part.tier === "read") return "paths";
		return "program";
	}
	if (FILE_TOOLS.has(tool)) return part.paths.some((touch) => touch.access === "write") ? "edit" : "paths";
	return "tool";
}

/** One part the policy asked about (at `tier`, the tier it asked at), as the modes look at it. */
export function askingEffect(tool: string, part: ActionPart, tier: Tier): AskingEffect {
	return {
		tier,
		effects: partEffects(tool, part),
		leavesCwd: part.paths.some((touch) => touch.outsideCwd),
		writesOutsideCwd: part.paths.some((touch) => touch.outsideCwd && touch.access === "write"),
		name: partName(tool, part),
	};
}

/** What runs, in a few words: the command with the wrappers around it (`timeout python3`), else the tool. */
function partName(tool: string, part: ActionPart): string | undefined {
	if (tool !== "bash") return tool;
	return part.command === undefined ? undefined : [...part.command.via, part.command.name].join(" ");
}

/** The clause that says why a part is not an edit. */
function runs(part: AskingEffect): string {
	if (part.effects === "tool") return `\`${part.name}\` is another extension's tool, not a file edit`;
	return part.name === undefined
		? "part of the command is not a plain command (a redirected group, or code the gate cannot see into)"
		: `\`${part.name}\` runs a program`;
}

/** What `mode` makes of the policy step's verdict on `action` (`what` names the call for the model). */
export function permissionModeEffect(
	mode: PermissionMode,
	action: ClassifiedAction,
	verdict: PolicyVerdict,
	what: string,
): ModeEffect {
	const source: DecisionSource = { kind: "mode", mode };
	if (mode === "plan") {
		if (verdict.kind === "settled" && verdict.outcome === "deny") return NONE;
		if (tierRank(action.tier) <= tierRank("read")) return NONE;
		return {
			kind: "deny",
			source,
			reason: `Blocked by pi-permission-hub: ${what} is ${action.tier}, and this session is in plan mode, where only reads run. Do not retry it: investigate with reads and describe the change you would make instead.`,
		};
	}
	if (verdict.kind !== "ask" || verdict.humanOnly || verdict.askRule) return NONE;
	if (action.parts.some((part) => part.guard !== undefined)) return NONE;
	if (mode === "accept-edits") return acceptEdits(verdict.asking, source);
	if (mode === "sandboxed") return sandboxed(action, verdict.asking, verdict.contained, source);
	if (mode === "trusted") return trusted(verdict.asking, verdict.contained, source);
	return NONE;
}

/**
 * `accept-edits`: writes inside the working directory whose every effect is known, never a program run — with
 * or without a sandbox (a program's writes in the project can make the next command run anything).
 */
function acceptEdits(asking: readonly AskingEffect[], source: DecisionSource): ModeEffect {
	if (asking.some((part) => part.tier !== "write" || part.leavesCwd)) return NONE;
	const other = asking.find((part) => part.effects !== "edit");
	if (other === undefined)
		return { kind: "allow", source, reason: "allowed by the accept-edits permission mode" };
	return { kind: "none", note: `accept-edits accepts edits, not program runs: ${runs(other)}` };
}

/** The tiers whose sandbox is project-write or read-only: no network (adr/0017). */
const WITHOUT_NETWORK: ReadonlySet<Tier> = new Set(["read", "write", "destructive"]);

/**
 * `sandboxed`: what `accept-edits` allows, and any bash call the sandbox contains in a profile without network
 * (the whole call's tier: its profile follows it, whatever allowed its other parts) whose asking parts stay
 * inside the working directory. With no sandbox running it is `accept-edits`: no program runs unasked.
 */
function sandboxed(
	action: ClassifiedAction,
	asking: readonly AskingEffect[],
	contained: boolean,
	source: DecisionSource,
): ModeEffect {
	const edits = acceptEdits(asking, source);
	if (edits.kind !== "none") return { ...edits, reason: "allowed by the sandboxed permission mode" };
	if (!contained || !WITHOUT_NETWORK.has(action.tier) || asking.some((part) => part.leavesCwd)) {
		const program = asking.find((part) => part.effects !== "edit");
		return contained || program === undefined
			? NONE
			: {
					kind: "none",
					note: `sandboxed runs programs unasked only inside the sandbox, and none contains this call: ${runs(program)}`,
				};
	}
	return {
		kind: "allow",
		source,
		reason: "allowed by the sandboxed permission mode: it runs in the project-write sandbox",
	};
}

/**
 * `trusted`: asks up to `destructive`, none writing outside the working directory — a program run only where
 * the sandbox of its tier contains it, so with no sandbox running it runs nothing whose effects the gate cannot
 * see without a human.
 */
function trusted(asking: readonly AskingEffect[], contained: boolean, source: DecisionSource): ModeEffect {
	if (asking.some((part) => tierRank(part.tier) > TRUSTED_UP_TO)) return NONE;
	// Outside the project no mode writes unasked: what runs there later (`~/.npmrc`, a `.pth` file, an autostart
	// entry) is not a list the gate could keep complete (adr/0014). A rule or grant for the path is a human's.
	if (asking.some((part) => part.writesOutsideCwd))
		return { kind: "none", note: "trusted never writes outside the project without a human" };
	const program = contained ? undefined : asking.find((part) => part.effects === "program");
	if (program === undefined)
		return { kind: "allow", source, reason: "allowed by the trusted permission mode" };
	return {
		kind: "none",
		note: `trusted runs programs unasked only inside the sandbox, and none contains this call: ${runs(program)}`,
	};
}

/** The refusal `dont-ask` gives where a human would have been asked. */
export function dontAskRefusal(what: string): Extract<ModeEffect, { readonly kind: "deny" }> {
	return {
		kind: "deny",
		source: { kind: "mode", mode: "dont-ask" },
		reason: `Blocked by pi-permission-hub: ${what} would need a human's approval, and this session's permission mode is dont-ask, so it was refused without asking. Do not retry it; find a way that needs no approval, or report what you needed.`,
	};
}
