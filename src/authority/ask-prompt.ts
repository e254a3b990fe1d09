import { BASH_PREVIEW_MAX } from "../classify/preview.ts";
import { type Origin, originDescription, originLabel, shownPath } from "../origin/origin.ts";
import { isGuessed } from "../origin/shown-name.ts";
import type { GrantScope } from "../policy/grant-coverage.ts";
import { everywherePattern } from "../policy/saved-rules.ts";
import type { ChangePreview } from "./change-preview.ts";
import type { Ask, SaveWhere } from "./terminal-authorizer.ts";
import { visibleText } from "./visible-text.ts";

/** One answer a human can give, with the key the TUI dialog binds to it and the label select() shows. */
export type DialogChoice =
	| { readonly key: "y"; readonly label: string; readonly answer: { kind: "allow"; scope: "once" } }
	| {
			readonly key: "s" | "a" | "t";
			readonly label: string;
			readonly answer: { kind: "allow"; scope: GrantScope };
	  }
	/** Saves a rule in the user config (adr/0018): for this project's directory, or everywhere. */
	| {
			readonly key: "p" | "e" | "x";
			readonly label: string;
			readonly answer: { kind: "always"; verdict: "allow" | "deny"; where: SaveWhere };
	  }
	| { readonly key: "n"; readonly label: string; readonly answer: { kind: "deny"; withReason: false } }
	| { readonly key: "r"; readonly label: string; readonly answer: { kind: "deny"; withReason: true } }
	/**
	 * Only for a delegation whose children would run ungated, when a settings change `doctor --fix` makes would
	 * gate them: write it, then let the delegation go on with gated children.
	 */
	| { readonly key: "f"; readonly label: string; readonly answer: { kind: "fix" } }
	/** Only for an ask parked in an earlier run: decide nothing now, it stays parked. */
	| { readonly key: "l"; readonly label: string; readonly answer: { kind: "later" } }
	/** Only for the start-up offer of parked asks: open a dialog for each of them. */
	| { readonly key: "v"; readonly label: string; readonly answer: { kind: "review" } };

export type DialogAnswer = DialogChoice["answer"];

export interface AskPrompt {
	readonly title: string;
	/** Body lines: what, where, tier, why, who. */
	readonly lines: readonly string[];
	/**
	 * How many of the first lines are what runs (the call, the paths outside the project it touches): a dialog
	 * shows them whole, never cut to a row or dropped on a short terminal (adr/0021).
	 */
	readonly wholeLines?: number;
	readonly choices: readonly DialogChoice[];
	/** What an `edit` or `write` would change, shown below the body lines. */
	readonly change?: ChangePreview;
	/** What Esc (closing the dialog without a choice) means for this ask. */
	readonly dismiss: "deny" | "later";
}

export interface PromptContext {
	/** Set for an ask forwarded from a subagent: offers the subagent/tree scopes instead of "this session". */
	readonly forwarded: boolean;
	/**
	 * Set for an ask parked in an earlier run and offered again: it names who parked it and when, offers no
	 * grant (that run is over), and Esc or "later" leave it parked.
	 */
	readonly parked?: { readonly createdAt: string; readonly now: number };
	/** 1-based position in the queue of pending asks, and the queue length. */
	readonly position?: { readonly index: number; readonly total: number };
	/** The change an `edit` or `write` would make, read from disk when the dialog opens. */
	readonly change?: ChangePreview;
}

/**
 * An answer whose effect outlives the call: a saved rule (`p`, `e`, `x`), a grant for the whole tree (`t`), a
 * settings change (`f`). The TUI asks for a second, distinct key before taking it (adr/0030).
 */
export function lastsBeyondTheCall(choice: DialogChoice): boolean {
	const { answer } = choice;
	return (
		answer.kind === "always" || answer.kind === "fix" || (answer.kind === "allow" && answer.scope === "tree")
	);
}

/** What Esc does, as the dialogs spell it out. */
export const DISMISS_LABELS: Readonly<Record<AskPrompt["dismiss"], string>> = {
	deny: "dismiss (counts as deny)",
	later: "later: this and the rest stay parked",
};

export function buildAskPrompt(ask: Ask, context: PromptContext): AskPrompt {
	return visiblePrompt(promptFor(ask, context));
}

/** Every text of the prompt as `visibleText` shows it; the change is already made visible line by line. */
function visiblePrompt(prompt: AskPrompt): AskPrompt {
	return {
		...prompt,
		title: visibleText(prompt.title),
		lines: prompt.lines.map(visibleText),
		choices: prompt.choices.map((choice) => ({ ...choice, label: visibleText(choice.label) })),
	};
}

/** A grant's pattern as its label shows it: a command's bare, any other with its surface. */
function patternText(s: { readonly surface: string; readonly pattern: string }): string {
	return s.surface === "command" ? s.pattern : `${s.surface} ${s.pattern}`;
}

/**
 * What runs, first: the call as it will run, then every path outside the project it touches (all its parts,
 * not only the asking ones), by the name the call gives it (and a symlink's target).
 */
function whatRuns(action: Ask["action"]): string[] {
	const outside = [
		...new Set(action.parts.flatMap((part) => part.paths.filter((p) => p.outsideCwd).map(outsideName))),
	];
	return [
		`${action.tool}: ${action.preview}`,
		...(outside.length > 0 ? [`Outside the project: ${outside.join(", ")}`] : []),
	];
}

/** A path by the name the call gives it, and where a symlink takes it when that is elsewhere. */
function outsideName(touch: Ask["action"]["parts"][number]["paths"][number]): string {
	return touch.absolute === touch.resolved ? touch.typed : `${touch.typed} (→ ${touch.resolved})`;
}

/**
 * A bash command longer than its preview shows cannot be seen whole: the dialog offers no allow for it (a
 * human never approves what they could not read).
 */
function cutCommand(action: Ask["action"]): boolean {
	const command = action.tool === "bash" ? action.input.command : undefined;
	return typeof command === "string" && command.length > BASH_PREVIEW_MAX;
}

function promptFor(ask: Ask, context: PromptContext): AskPrompt {
	const { action } = ask;
	const patterns = cutCommand(action) ? [] : ask.suggestions.map(patternText);
	const grantText = patterns.join(", ");
	// "Everywhere" saves paths under the cwd relative to it (adr/0018): its label shows that pattern.
	const everywhereText = ask.suggestions.map((s) => patternText(everywherePattern(s, action.cwd))).join(", ");
	const queue =
		context.position && context.position.total > 1
			? ` (${context.position.index} of ${context.position.total})`
			: "";
	// "write (write)" says nothing twice: the tier goes in the title only when it adds something.
	const what = action.tool === action.tier ? action.tool : `${action.tool} (${action.tier})`;
	const change = context.change ? { change: context.change } : {};
	if (context.parked) return { ...parkedPrompt(ask, what, queue, context.parked), ...change };
	const runs = whatRuns(action);
	const cut = cutCommand(action);
	const lines = [
		...runs,
		...(cut ? [CUT_COMMAND_LINE] : []),
		`Tier: ${action.tier}`,
		`Why: ${ask.why}`,
		...(ask.origin.kind === "subagent" ? [`Requested by: ${requesterText(ask.origin)}`] : []),
		...(ask.parentUnreachable
			? [`Asked here: this subagent's parent cannot be asked (${ask.parentUnreachable})`]
			: []),
		`Directory: ${action.cwd}`,
	];
	const choices: DialogChoice[] = [];
	// Never on a forwarded ask: the fix is in this session's own settings, for this session's own delegation.
	if (ask.kind === "own" && ask.fixAndContinue) {
		choices.push({
			key: "f",
			label: `Add the gate to ${ask.fixAndContinue.file} and continue`,
			answer: { kind: "fix" },
		});
	}
	if (!cut) choices.push({ key: "y", label: "Allow once", answer: { kind: "allow", scope: "once" } });
	if (patterns.length > 0) {
		if (context.forwarded) {
			choices.push({
				key: "a",
				label: `Allow for this subagent: ${grantText}`,
				answer: { kind: "allow", scope: "subagent" },
			});
			choices.push({
				key: "t",
				label: `Allow for the whole tree: ${grantText}`,
				answer: { kind: "allow", scope: "tree" },
			});
		} else {
			choices.push({
				key: "s",
				label: `Allow for this session: ${grantText}`,
				answer: { kind: "allow", scope: "session" },
			});
		}
	}
	if (patterns.length > 0 && ask.savable.allow) {
		choices.push(
			{
				key: "p",
				label: `Always allow in ${action.cwd}: ${grantText}`,
				answer: { kind: "always", verdict: "allow", where: "project" },
			},
			{
				key: "e",
				label: `Always allow everywhere: ${everywhereText}`,
				answer: { kind: "always", verdict: "allow", where: "everywhere" },
			},
		);
	}
	choices.push(...DENIALS);
	if (patterns.length > 0 && ask.savable.deny) {
		choices.push({
			key: "x",
			label: `Always deny in ${action.cwd}: ${grantText}`,
			answer: { kind: "always", verdict: "deny", where: "project" },
		});
	}
	return {
		title: `Permission needed: ${what}${queue}`,
		lines,
		wholeLines: runs.length,
		choices,
		...change,
		dismiss: "deny",
	};
}

const CUT_COMMAND_LINE = `The command is longer than the ${BASH_PREVIEW_MAX} characters a dialog shows: it can only be denied.`;

const DENIALS: readonly DialogChoice[] = [
	{ key: "n", label: "Deny", answer: { kind: "deny", withReason: false } },
	{ key: "r", label: "Deny with a reason…", answer: { kind: "deny", withReason: true } },
];

function parkedPrompt(
	ask: Ask,
	what: string,
	queue: string,
	parked: NonNullable<PromptContext["parked"]>,
): AskPrompt {
	const { action } = ask;
	const age = Math.max(0, parked.now - Date.parse(parked.createdAt));
	const runs = whatRuns(action);
	const cut = cutCommand(action);
	return {
		title: `Parked in an earlier run: ${what}${queue}`,
		wholeLines: runs.length,
		lines: [
			...runs,
			...(cut ? [CUT_COMMAND_LINE] : []),
			`Tier: ${action.tier}`,
			`Why: ${ask.why}`,
			`Requested by: ${originDescription(ask.origin)}, ${agoText(age)}`,
			`Directory: ${action.cwd}`,
			"Allowing lets exactly this action run once, the next time it is attempted.",
		],
		choices: [
			...(cut ? [] : [{ key: "y", label: "Allow once", answer: { kind: "allow", scope: "once" } } as const]),
			...DENIALS,
			{ key: "l", label: "Later (keep it parked)", answer: { kind: "later" } },
		],
		dismiss: "later",
	};
}

/** `3 min ago`, `2 h ago`, `4 days ago`. */
export function agoText(ms: number): string {
	const minutes = Math.floor(ms / 60_000);
	if (minutes < 1) return "just now";
	if (minutes < 60) return `${minutes} min ago`;
	const hours = Math.floor(minutes / 60);
	if (hours < 48) return `${hours} h ago`;
	return `${Math.floor(hours / 24)} days ago`;
}

/** The requesting subagent; a name the gate guessed says so (adr/0025). */
function requesterText(origin: Extract<Origin, { kind: "subagent" }>): string {
	const guessed = shownPath(origin).some(isGuessed);
	return `${originLabel(origin)}${guessed ? " (? = the agent its parent's delegation call named: a guess)" : ""}`;
}
