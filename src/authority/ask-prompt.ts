import { originLabel } from "../origin/origin.ts";
import type { GrantScope } from "../policy/session-grant.ts";
import type { Ask } from "./terminal-authorizer.ts";

/** One answer a human can give, with the key the TUI dialog binds to it and the label select() shows. */
export type DialogChoice =
	| { readonly key: "y"; readonly label: string; readonly answer: { kind: "allow"; scope: "once" } }
	| {
			readonly key: "s" | "a" | "t";
			readonly label: string;
			readonly answer: { kind: "allow"; scope: GrantScope };
	  }
	| { readonly key: "n"; readonly label: string; readonly answer: { kind: "deny"; withReason: false } }
	| { readonly key: "r"; readonly label: string; readonly answer: { kind: "deny"; withReason: true } };

export type DialogAnswer = DialogChoice["answer"];

export interface AskPrompt {
	readonly title: string;
	/** Body lines: what, where, tier, why, who. */
	readonly lines: readonly string[];
	readonly choices: readonly DialogChoice[];
}

export interface PromptContext {
	/** Set for an ask forwarded from a subagent: offers the subagent/tree scopes instead of "this session". */
	readonly forwarded: boolean;
	/** 1-based position in the queue of pending asks, and the queue length. */
	readonly position?: { readonly index: number; readonly total: number };
}

export function buildAskPrompt(ask: Ask, context: PromptContext): AskPrompt {
	const { action } = ask;
	const patterns = ask.suggestions.map((s) =>
		s.surface === "command" ? s.pattern : `${s.surface} ${s.pattern}`,
	);
	const grantText = patterns.join(", ");
	const queue =
		context.position && context.position.total > 1
			? ` (${context.position.index} of ${context.position.total})`
			: "";
	const lines = [
		`${action.tool}: ${action.preview}`,
		`Tier: ${action.tier}`,
		`Why: ${ask.why}`,
		...(ask.origin.kind === "subagent" ? [`Requested by: ${originLabel(ask.origin)}`] : []),
		`Directory: ${action.cwd}`,
	];
	const choices: DialogChoice[] = [
		{ key: "y", label: "Allow once", answer: { kind: "allow", scope: "once" } },
	];
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
	choices.push({ key: "n", label: "Deny", answer: { kind: "deny", withReason: false } });
	choices.push({ key: "r", label: "Deny with a reason…", answer: { kind: "deny", withReason: true } });
	return { title: `Permission needed: ${action.tool} (${action.tier})${queue}`, lines, choices };
}
